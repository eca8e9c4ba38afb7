import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { HOLDER_CONNECT_TIMEOUT_MS, HolderClient } from './holder-client.js';
import type { HolderStatus } from './holder-protocol.js';
import { sessionKey } from './session-key.js';
import { existingSessionDirectory, sessionFiles } from './session-paths.js';

export interface FoundHolder {
  client: HolderClient;
  status: HolderStatus;
}

/**
 * The live holder for this config, or undefined — with a --verbose line saying why when there was
 * one to consider (SPEC §12: falls back to a cold start when the holder is gone, hung, or for
 * another config). `--no-session` skips it.
 */
export async function findHolder(cli: CliContext, config: ToolrunConfig | { key: string }, options: { quiet?: boolean } = {}): Promise<FoundHolder | undefined> {
  const verbose = (line: string) => (options.quiet ? undefined : cli.terminal.verbose(line));
  if (!cli.globals.session || ('servers' in config && Object.keys(config.servers).length === 0)) return undefined;
  let socket: string;
  try {
    const dir = existingSessionDirectory(cli.env);
    if (!dir) return undefined;
    socket = sessionFiles(dir, 'key' in config ? config.key : sessionKey(config, cli.env)).socket;
  } catch (error) {
    verbose(`session: not used (${(error as Error).message}); starting servers here`);
    return undefined;
  }
  if (!existsSync(socket)) {
    const path = 'key' in config ? undefined : config.path;
    const stale = !options.quiet && cli.globals.verbose && path ? staleHolderFor(dirname(socket), path) : undefined;
    if (stale)
      verbose(
        `session: the holder for ${path} (pid ${stale}) is stale: it was started for an older version of this config (or other values of its \${VAR}s); starting servers here (toolrun session stop, then toolrun session start, refreshes it)`,
      );
    else verbose('session: no holder for this config (toolrun session start keeps servers warm); starting servers here');
    return undefined;
  }
  let client: HolderClient;
  try {
    client = await HolderClient.connect(socket);
  } catch (error) {
    verbose(`session: the holder for this config is gone (${(error as Error).message}); starting servers here`);
    return undefined;
  }
  // A stopped (SIGSTOP) or stuck holder accepts connections but never answers: asked first, briefly.
  const answer = client.request('status');
  answer.catch(() => {});
  const timer = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), HOLDER_CONNECT_TIMEOUT_MS).unref());
  try {
    const reply = await Promise.race([answer, timer]);
    if (!reply) {
      client.close();
      verbose(`session: the holder for this config did not answer within ${HOLDER_CONNECT_TIMEOUT_MS} ms (hung?); starting servers here`);
      return undefined;
    }
    cli.onExit(async () => client.close());
    return { client, status: reply.status as HolderStatus };
  } catch (error) {
    client.close();
    verbose(`session: the holder for this config failed (${(error as Error).message}); starting servers here`);
    return undefined;
  }
}

/**
 * The pid of a holder started for the same config file but another key (the file was edited since,
 * or a ${VAR} it names changed), read from the holders' lock files and command lines; else undefined.
 */
function staleHolderFor(dir: string, configPath: string): number | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.lock'));
  } catch {
    return undefined;
  }
  for (const file of files) {
    try {
      const pid = Number(readFileSync(`${dir}/${file}`, 'utf8').trim());
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const index = argv.indexOf('--config');
      if (index >= 0 && argv[index + 1] && resolve(argv[index + 1]!) === resolve(configPath) && argv.some((word) => word.endsWith('session-holder.js'))) return pid;
    } catch {
      // gone meanwhile, or not a holder
    }
  }
  return undefined;
}

/**
 * Can the holder serve these servers — live, or crashed and restarted by the holder on this use?
 * Undefined when it can; else why not (the first server it cannot serve), for the --verbose line.
 */
export function missingFromHolder(status: HolderStatus, servers: string[]): string | undefined {
  for (const name of servers) {
    const why = whyNotServed(status, name);
    if (why) return why;
  }
  return undefined;
}

function whyNotServed(status: HolderStatus, name: string): string | undefined {
  const server = status.servers.find((candidate) => candidate.name === name);
  if (!server) return `the holder does not hold '${name}'`;
  if (server.status === 'connected' || (server.status === 'crashed' && server.restartsOnUse)) return undefined;
  return server.status === 'crashed' ? `the holder's '${name}' crashed: ${server.reason}` : `the holder's '${name}' is not connected: ${server.reason ?? 'it failed'}`;
}
