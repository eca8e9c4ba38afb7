import type { CliContext } from '../cli-support/cli-context.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { describeThrown, ExitCode, exitCodeForKind, ToolrunError, UsageError } from '../errors.js';
import type { AskBack } from '../mcp/ask-back.js';
import { formatServerLog } from '../output/format-server-log.js';
import { formatTable } from '../output/format-tool-list.js';
import type { Terminal } from '../output/terminal.js';
import type { HeldServerStatus, HolderStatus } from '../session/holder-protocol.js';
import { refuseShellLine } from './check-shell-line.js';
import type { CompletableTool, CompletionSource } from './complete-shell-line.js';
import { CHILD_COMMANDS, runChildCommand } from './shell-child-command.js';
import { SHELL_SERVERS_ENV } from './shell-servers-env.js';
import { ShellLocalTools } from './shell-local-tools.js';
import { SHELL_HELP } from './shell-help.js';
import type { ShellHolder } from './shell-holder.js';
import { callToolInShell } from './shell-tool-call.js';
import { saveShellCalls } from './shell-save.js';
import type { RecordedCall } from '../testing/tests-from-recording.js';
import { splitShellWords } from './split-shell-words.js';

/** What running one line gave: an exit code, `exit`, or `refused` (not run, not kept in history). */
export type LineOutcome = number | 'exit' | 'refused';

type HeldTool = CompletableTool & { description?: string; inputSchema?: CompletableTool['inputSchema'] & { required?: string[] } };

/**
 * One shell: its holder, the held servers' tools, `.json`, and what each line does. Terminal
 * handling (prompt, keys, history) is the caller's (run-shell.ts): the same session runs a person's
 * lines and a script's.
 */
export class ShellSession implements CompletionSource {
  json: boolean;
  #tools: HeldTool[] = [];
  #servers: string[] = [];
  /** Local tools no held server offers under the same name (a held server's tool wins in the shell). */
  #localTools: HeldTool[] = [];
  readonly #local: ShellLocalTools;
  /** Servers already said to be down (said once, until restarted). */
  readonly #reportedDown = new Set<string>();
  /** The tool calls of this session and their answers, for `.save FILE`. */
  readonly #calls: RecordedCall[] = [];

  constructor(
    readonly cli: CliContext,
    readonly config: ToolrunConfig,
    readonly holder: ShellHolder,
    readonly terminal: Terminal,
    readonly askBack: () => Promise<AskBack>,
  ) {
    this.json = cli.globals.json;
    this.#local = new ShellLocalTools(cli, config);
  }

  servers(): string[] {
    return this.#servers;
  }

  tools(): CompletableTool[] {
    return [...this.#tools, ...this.#localTools];
  }

  /** The held servers' tools, for Tab and `tools` (again after a restart). */
  async refreshTools(): Promise<void> {
    const wanted = this.#servers.length > 0 ? this.#servers : this.holder.status.servers.map((server) => server.name);
    const reply = await this.holder.client.request('servers', { names: wanted });
    const servers = reply.servers as Array<{ name: string; tools: Array<{ name: string; description?: string; inputSchema?: HeldTool['inputSchema'] }> }>;
    if (this.#servers.length === 0) this.#servers = wanted;
    this.#tools = servers.flatMap((server) => server.tools.map((tool) => ({ server: server.name, name: tool.name, description: tool.description, inputSchema: tool.inputSchema })));
    this.#localTools = (await this.#local.tools()).filter((local) => !this.#tools.some((tool) => tool.name === local.name));
  }

  /**
   * The servers' stderr and log messages between and during calls, printed as they come (above the
   * prompt on a terminal). A holder too old to follow just shows none.
   */
  follow(): void {
    this.holder.client
      .send('follow', {}, (event) => {
        if (event.event === 'stderr') this.terminal.serverStderr(event.server ?? '?', Buffer.from(String(event.text)));
        else if (event.event === 'log') {
          const { line, isWarning } = formatServerLog(event.server ?? '?', event.params as Record<string, unknown>);
          if (isWarning) this.terminal.warn(line);
          else this.terminal.info(line);
        } else if (event.event === 'ask') void this.holder.client.send('answer', { ask: event.ask, answer: { unhandled: true } }).reply.catch(() => {});
      })
      .reply.catch(() => {});
  }

  /** Runs one line; errors are said here (one line on stderr) and become its exit code. */
  async run(line: string, signal: AbortSignal, realBytes?: number): Promise<LineOutcome> {
    const refusal = refuseShellLine(line, realBytes);
    if (refusal) {
      this.terminal.error(`✖ ${refusal}`);
      return 'refused';
    }
    try {
      const words = splitShellWords(line);
      if (words.length === 0) return ExitCode.OK;
      return await this.#dispatch(words, signal);
    } catch (error) {
      return this.#report(error, signal);
    }
  }

  async #dispatch(words: string[], signal: AbortSignal): Promise<LineOutcome> {
    const [command, ...rest] = words as [string, ...string[]];
    switch (command) {
      case 'exit':
      case 'quit':
        return 'exit';
      case 'help':
        await this.terminal.result(SHELL_HELP);
        return ExitCode.OK;
      case 'tools':
        return this.#listTools(rest[0]);
      case '.json':
        if (rest[0] !== 'on' && rest[0] !== 'off') throw new UsageError(`.json takes on or off (it is ${this.json ? 'on' : 'off'})`);
        this.json = rest[0] === 'on';
        this.terminal.info(`results as JSON: ${rest[0]}`);
        return ExitCode.OK;
      case '.stderr':
        return this.#showStderr(rest[0]);
      case 'restart':
        return this.#restart(rest[0]);
      case '.save':
        return saveShellCalls(this.cli, this.terminal, this.#calls, rest);
    }
    const child = CHILD_COMMANDS[command];
    if (child) {
      if ((command === 'doctor' || command === 'read' || command === 'get' || command === 'time') && rest.length === 0)
        throw new UsageError(`${command} needs ${command === 'doctor' ? 'a SERVER' : command === 'read' ? 'a URI' : command === 'get' ? 'a PROMPT' : 'a TOOL'}; see help`);
      // The child acts on this shell's servers (held, so served by the holder), never on other configured ones.
      const words = command === 'time' ? [this.#qualify(rest[0]!), ...rest.slice(1)] : rest;
      const env = { ...this.cli.env, [SHELL_SERVERS_ENV]: JSON.stringify(this.#servers) };
      return runChildCommand({ globals: this.#childGlobals(), command: [...child, ...words], terminal: this.terminal, env, cwd: this.cli.cwd, signal });
    }
    if (!command.includes(':') && !this.#tools.some((tool) => tool.name === command) && (await this.#local.has(command)))
      return this.#local.call([command, ...rest], { terminal: this.terminal, json: this.json, signal });
    const code = await callToolInShell(
      {
        holder: this.holder.client,
        terminal: this.terminal,
        json: this.json,
        timeoutMs: this.cli.globals.timeout ?? this.config.timeoutMs,
        askBack: this.askBack,
        signal,
        onCalled: (call) => this.#calls.push(call),
      },
      [this.#qualify(command), ...rest],
    );
    if (code !== ExitCode.OK) await this.#sayWhoWentDown();
    return code;
  }

  /**
   * A plain tool name that one held server offers, as SERVER:TOOL: the shell talks to its servers,
   * so their `echo` is meant, not a local tool of the same name (the holder leaves those out).
   */
  #qualify(name: string): string {
    if (name.includes(':')) return name;
    const owners = this.#tools.filter((tool) => tool.name === name);
    return owners.length === 1 ? `${owners[0]!.server}:${name}` : name;
  }

  /** The options a child toolrun needs to be this shell's command: the same config (hence the same holder) and output mode. */
  #childGlobals(): string[] {
    const globals = this.cli.globals;
    const source = globals.host ? ['--host', globals.host, ...(globals.terminalEnv ? ['--terminal-env'] : [])] : this.config.path ? ['--config', this.config.path] : [];
    return [
      ...source,
      ...(globals.protocol ? ['--protocol', globals.protocol] : []),
      ...(globals.timeout !== undefined ? ['--timeout', String(globals.timeout)] : []),
      ...(this.json ? ['--json'] : []),
      ...(globals.verbose ? ['--verbose'] : []),
      ...(globals.color ? [] : ['--no-color']),
    ];
  }

  async #listTools(server: string | undefined): Promise<number> {
    if (server && !this.#servers.includes(server)) throw new UsageError(`'${server}' is not a server of this shell; its servers: ${this.#servers.join(', ')}`);
    // Unnamed: the local tools too (server 'local'), which the shell runs as exec does.
    const tools = server ? this.#tools.filter((tool) => tool.server === server) : [...this.#tools, ...this.#localTools];
    const ambiguous = (name: string) => this.#tools.filter((tool) => tool.name === name).length > 1;
    const nameOf = (tool: HeldTool) => (ambiguous(tool.name) ? `${tool.server}:${tool.name}` : tool.name);
    if (this.json) {
      await this.terminal.resultJson({ tools: tools.map((tool) => ({ name: nameOf(tool), server: tool.server, description: tool.description, parameters: tool.inputSchema })) });
      return ExitCode.OK;
    }
    const rows = tools.map((tool) => {
      const required = new Set(tool.inputSchema?.required ?? []);
      const parameters = Object.keys(tool.inputSchema?.properties ?? {}).map((key) => `${key}${required.has(key) ? '*' : ''}`);
      return [nameOf(tool), parameters.join(', ') || '-', (tool.description ?? '').split('\n')[0]!.trim()];
    });
    await this.terminal.result(formatTable(['TOOL', 'PARAMETERS (* required)', 'DESCRIPTION'], rows, this.terminal.stdout.isTTY ? this.terminal.stdout.columns : undefined));
    this.terminal.info(`${tools.length} tool${tools.length === 1 ? '' : 's'} of ${server ?? [...this.#servers, ...(this.#localTools.length > 0 ? ['local'] : [])].join(', ')}`);
    return ExitCode.OK;
  }

  async #showStderr(server: string | undefined): Promise<number> {
    if (server && !this.#servers.includes(server)) throw new UsageError(`'${server}' is not a server of this shell; its servers: ${this.#servers.join(', ')}`);
    const reply = await this.holder.client.request('stderr', { server });
    const tails = reply.stderr as Array<{ server: string; lines: string[] }>;
    const shown = tails.filter((tail) => !server || tail.server === server);
    if (this.json) {
      await this.terminal.resultJson({ stderr: shown });
      return ExitCode.OK;
    }
    const lines = shown.flatMap((tail) => tail.lines.map((line) => `[${tail.server}] ${line}`));
    if (lines.length === 0) this.terminal.info(`no stderr from ${server ?? 'the servers'} yet`);
    else await this.terminal.result(lines.join('\n'));
    return ExitCode.OK;
  }

  /** `restart [SERVER]`: the holder starts the server again (all that are down when none is named). */
  async #restart(server: string | undefined): Promise<number> {
    if (server && !this.#servers.includes(server)) throw new UsageError(`'${server}' is not a server of this shell; its servers: ${this.#servers.join(', ')}`);
    const status = await this.#status();
    const down = status.servers.filter((held) => this.#servers.includes(held.name) && held.status !== 'connected').map((held) => held.name);
    const names = server ? [server] : down;
    if (names.length === 0) {
      this.terminal.info('every server of the shell is running');
      return ExitCode.OK;
    }
    const reply = await this.holder.client.request('add', { servers: names });
    const failures = reply.failures as Array<{ server: string; reason: string }>;
    for (const name of names) {
      const failure = failures.find((item) => item.server === name);
      const held = (reply.status as HolderStatus).servers.find((item) => item.name === name);
      if (failure || held?.status !== 'connected') this.terminal.error(`✖ ${name}: ${failure?.reason ?? held?.reason ?? 'not connected'}`);
      else {
        this.#reportedDown.delete(name);
        this.terminal.info(`✔ ${name} restarted: ${held.tools} tool${held.tools === 1 ? '' : 's'} (pid ${held.pid ?? '-'})`);
      }
    }
    await this.refreshTools();
    return failures.length > 0 ? ExitCode.UNREACHABLE : ExitCode.OK;
  }

  async #status(): Promise<HolderStatus> {
    return (await this.holder.client.request('status')).status as HolderStatus;
  }

  /** After a failed call: a server of the shell that went down is said once, with the way back. */
  async #sayWhoWentDown(): Promise<void> {
    let servers: HeldServerStatus[];
    try {
      servers = (await this.#status()).servers;
    } catch {
      return;
    }
    for (const server of servers) {
      if (!this.#servers.includes(server.name) || server.status === 'connected' || this.#reportedDown.has(server.name)) continue;
      this.#reportedDown.add(server.name);
      this.terminal.error(
        `✖ server '${server.name}' went down (${server.reason ?? server.status}); the shell goes on: type 'restart ${server.name}' to start it again${server.restartsOnUse ? ' (or call it: the holder restarts it once)' : ''}`,
      );
    }
  }

  #report(error: unknown, signal: AbortSignal): number {
    if (signal.aborted) {
      this.terminal.error('✖ cancelled (Ctrl-C); the shell goes on');
      return ExitCode.INTERRUPTED;
    }
    if (error instanceof ToolrunError) {
      this.terminal.error(`✖ ${error.message}`);
      return exitCodeForKind(error.kind);
    }
    // The socket to the holder failed: the holder is gone (killed, or stopped from elsewhere).
    if (this.holder.client.isClosed) {
      this.terminal.error(`✖ the session holder went away (${describeThrown(error)}); leave the shell (exit) and start it again`);
      return ExitCode.UNREACHABLE;
    }
    this.terminal.error(`✖ internal error: ${describeThrown(error)}`);
    return ExitCode.FAILURE;
  }
}
