import type { Command } from 'commander';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { ConfigError, UsageError } from '../errors.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { keepFromServers } from '../run-environment.js';
import { readVersion } from '../version.js';
import { httpBearerToken, parseListen } from '../cli-support/http-listen-options.js';
import { loadCliConfig } from '../cli-support/load-cli-config.js';
import { hostStateOf } from '../hosts/refused-servers.js';
import { assertServerExists } from '../cli-support/assert-server-exists.js';
import { isGatedFailure, openTools } from './support/open-tools.js';
import { takeOptionalFile } from '../cli-support/optional-file-option.js';

interface ServeOptions {
  http?: string;
  tools?: string[];
  deny?: string[];
  separator: string;
  tokenEnv?: string;
  lock?: string | true;
}

/** `toolrun serve` (SPEC §20): the registry, local tools and the config's (or --host's) servers, as one MCP server. */
export function registerServeCommand(program: Command, run: CommandRunner): void {
  program
    .command('serve')
    .description("serve the local tools and the servers' tools, resources and prompts as one MCP server (stdio, or Streamable HTTP on 127.0.0.1), upstreams kept warm and their credentials kept here")
    .argument('[server...]', 'the configured servers to serve (default: all of them)')
    .option('--http <[host:]port>', 'serve Streamable HTTP on this port (127.0.0.1 unless a host is given; 0 picks a free port) instead of stdio')
    .option('--tools <glob...>', 'serve only the tools whose served name matches (e.g. "everything__get-*" math_eval)')
    .option('--deny <glob...>', 'never serve these tools: hidden from tools/list, refused by tools/call')
    .option('--separator <text>', 'between a server and its tool, prompt or resource name', '__')
    .option('--token-env <var>', 'over HTTP: require "Authorization: Bearer $VAR" on every request (401 without it)')
    .option('--lock [file]', 'serve only the tools toolrun.lock (or FILE) pins, as pinned: a tool added or changed since is hidden and a call to it refused')
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun --config home.json serve                               # stdio: put it in a host's config
  $ toolrun serve everything --deny "everything__trigger-*"
  $ MCP_TOKEN=s3cret toolrun serve --http 8931 --token-env MCP_TOKEN
  $ toolrun --host cursor serve --http 0
  $ toolrun lock && toolrun serve --lock                          # a rewritten or new tool is not served

As a host's one server: "command": "toolrun", "args": ["--config", "/abs/toolrun.config.json", "serve"].
Tools are SERVER__TOOL (local tools keep their names); prompts and resource names get the same prefix.
The servers' headers, tokens and env stay in toolrun: a client sees names and results, never them.
Exit codes: 0 the client closed stdin · 2 bad usage · 3 config · 130 Ctrl-C (143 SIGTERM), every upstream ended first`,
    )
    .action((servers: string[], options: ServeOptions) =>
      run((cli) => {
        // `serve --lock notes`: notes is a server, not a lock file (optional-file-option.ts).
        const { file, word } = takeOptionalFile(options.lock, cli.cwd, 'toolrun.lock');
        return serve(cli, word === undefined ? servers : [word, ...servers], { ...options, lock: file });
      }),
    );
}

/**
 * The servers whose entries resolve. An unset `${VAR}` in one entry is a ConfigError (exit 3) when
 * the user named that server; serving them all, it is a warning and the others are served (before,
 * it ended serve with a stack as the upstreams started: issue 48 item 8).
 */
async function resolvableServers(cli: CliContext, config: ToolrunConfig, wanted: string[], named: boolean): Promise<string[]> {
  const { resolveServer } = await import('../config/resolve-server.js');
  return wanted.filter((name) => {
    const entry = config.servers[name]!;
    if (entry.refused) return true;
    try {
      resolveServer(config, entry, cli.env);
      return true;
    } catch (error) {
      if (named || !(error instanceof ConfigError)) throw error;
      cli.terminal.warn(`not serving ${name}: ${error.message}`);
      return false;
    }
  });
}

async function serve(cli: CliContext, names: string[], options: ServeOptions): Promise<number> {
  if (options.separator === '' || /[\s/]/.test(options.separator)) throw new UsageError(`--separator ${JSON.stringify(options.separator)}: give a non-empty separator without spaces or "/"`);
  const listen = options.http === undefined ? undefined : parseListen(options.http);
  const token = await httpBearerToken(cli, options, listen);
  // The bearer clients send is serve's own: no upstream it starts inherits it.
  if (options.tokenEnv !== undefined) keepFromServers(options.tokenEnv);
  const [{ serveOverHttp }, { Gateway }, { createGatewayServer }, { nameFilter, serverNameHoldingSeparator, separatorNoneHolds }] = await Promise.all([
    import('../serve/serve-http.js'),
    import('../serve/serve-gateway.js'),
    import('../serve/gateway-server.js'),
    import('../serve/serve-catalog.js'),
  ]);
  const config = await loadCliConfig(cli);
  for (const name of names) assertServerExists(config, name);
  const servers = await resolvableServers(cli, config, names.length > 0 ? [...new Set(names)] : Object.keys(config.servers), names.length > 0);
  const clashing = serverNameHoldingSeparator(servers, options.separator);
  if (clashing !== undefined)
    throw new UsageError(
      `server name '${clashing}' holds the separator '${options.separator}', so its tools and another server's could be served under the same name: give a --separator no server name holds (e.g. --separator ${separatorNoneHolds(servers)}), or rename the server`,
    );

  const lock = options.lock === undefined ? undefined : (await import('../lock/enforce.js')).openLockFilter(cli.cwd, options.lock === true ? 'toolrun.lock' : options.lock);
  // A server's question goes to the client whose call it is in; none in flight: nobody to ask. (The
  // gateway is made after openTools, whose askBack needs it: hence the holder.)
  const made: { gateway?: InstanceType<typeof Gateway> } = {};
  const askingSession = (server: string) => made.gateway?.askingSession(server);
  const opened = await openTools(cli, {
    config,
    useSession: false,
    onToolReplaced: () => {},
    askBack: {
      elicit: async (params, context) => ((await askingSession(context.server)?.elicit?.(params, context.signal)) ?? { action: 'decline' }) as { action: 'accept' | 'decline' | 'cancel' },
      sample: async (params, context) => {
        const session = askingSession(context.server);
        if (!session?.sample) throw new Error(`no one client of toolrun serve is in a call to '${context.server}' to answer sampling (none, or several at once: whose question it is cannot be known)`);
        return session.sample(params, context.signal) as never;
      },
      roots: async (context) => (await askingSession(context.server)?.roots?.(context.signal)) ?? [],
    },
  });
  const gateway = (made.gateway = new Gateway(opened, {
    lock,
    servers,
    separator: options.separator,
    filter: nameFilter(options.tools ?? [], options.deny ?? []),
    timeoutMs: cli.globals.timeout,
    warn: (message) => cli.terminal.warn(message),
  }));
  // Served at once; the upstreams start meanwhile (the handlers wait for them: Gateway.ready).
  void gateway.start().then((failures) => {
    // A server its host gates (untrusted, pending approval, a Zed extension's) is never started, so never tried again.
    const gated = failures.filter(isGatedFailure);
    const failed = failures.filter((failure) => !isGatedFailure(failure));
    if (failed.length > 0)
      cli.terminal.warn(`serving without ${failed.map((failure) => failure.server).join(', ')} for now: ${failed.length === 1 ? 'it' : 'they'} could not be connected (tried again at the next call)`);
    if (gated.length > 0)
      cli.terminal.warn(
        `not serving ${gated.map((failure) => `${failure.server} (${hostStateOf(failure.causeId)})`).join(', ')}: the host does not start ${gated.length === 1 ? 'it' : 'them'} as configured; \`toolrun hosts\` says why`,
      );
  });
  const info = { name: 'toolrun', version: readVersion() };

  if (!listen) {
    const { serveBothErasOverStdio } = await import('../serve/gateway-server-both-eras.js');
    // A client's line that is not JSON-RPC is dropped by the SDK; the first few are said on stderr, not every one of a flood.
    let problems = 0;
    const onError = (error: Error) => {
      problems += 1;
      if (problems <= 3) cli.terminal.warn(`toolrun serve: ${problems === 3 ? 'a third problem with the client (no more are shown): ' : ''}${error.message}`);
    };
    void gateway.ready.then(() => cli.terminal.verbose(`toolrun serve: ${gateway.tools().length} tools on stdio`));
    const stopped = new Promise<void>((done) => cli.signal.addEventListener('abort', () => done(), { once: true }));
    await Promise.race([serveBothErasOverStdio(gateway, info, { stdin: process.stdin, stdout: cli.terminal.stdout }, onError, (message) => cli.terminal.warn(message)), stopped]);
    return 0;
  }
  const http = await serveOverHttp(() => createGatewayServer(gateway, info).server, { ...listen, token, log: (message) => cli.terminal.warn(message) }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--http ${options.http}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'not allowed to listen there' : error.message}`);
  });
  cli.onExit(() => http.close());
  await gateway.ready;
  cli.terminal.info(`toolrun serve: ${gateway.tools().length} tools on ${http.url}${token ? ' (bearer token required)' : ''}`);
  await new Promise<void>((done) => cli.signal.addEventListener('abort', () => done(), { once: true }));
  return 0;
}
