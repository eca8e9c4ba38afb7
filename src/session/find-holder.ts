import { existsSync } from 'node:fs';
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
    verbose('session: no holder for this config (toolrun session start keeps servers warm); starting servers here');
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

/** Are these servers live in the holder? Says which is not, for the --verbose line. */
export function missingFromHolder(status: HolderStatus, servers: string[]): string | undefined {
  const live = new Set(status.servers.filter((server) => server.status === 'connected').map((server) => server.name));
  return servers.find((name) => !live.has(name));
}
