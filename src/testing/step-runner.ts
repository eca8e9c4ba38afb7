import { isConnectionLost } from '../mcp/connection-lost.js';
import { listItems } from '../mcp/list-items.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import type { StepOutcome } from './match-expectations.js';
import type { StepRequest, StepRunner } from './run-test-suite.js';
import { typeStepArguments } from './type-step-arguments.js';
import type { Registry } from '../assembly/server-status.js';
import type { ToolrunConfig } from '../config/config-types.js';
import { describeThrown, ToolNotFoundError, UsageError } from '../errors.js';
import { suggestNames } from '../registry/suggest-names.js';
import type { PreparedCall, ToolExecutor } from '../executor/tool-executor.js';
import { createMcpRunner } from '../mcp/mcp-tool-runner.js';
import type { RegisteredTool } from '../registry/tool-types.js';

/**
 * A failed call's message with the last lines of the server's stderr, said once: a message that
 * already ends with the last line (a server that died: "its stderr ends: …") gets the lines before it
 * there, one that quotes it elsewhere is left as it is, and any other gets them in parentheses.
 */
function withStderr(message: string, stderr: string[]): string {
  const tail = stderr.slice(-3);
  const last = tail.at(-1);
  if (last === undefined) return message;
  const ending = `; its stderr ends: ${last}`;
  if (message.endsWith(ending)) return `${message.slice(0, -ending.length)}; its stderr ends: ${tail.join(' / ')}`;
  if (message.includes(last)) return message;
  return `${message} (its stderr: ${tail.join(' / ')})`;
}

/** A JSON-RPC error's code, as the SDK's McpError (and a holder's answer) carry it. */
function jsonRpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** What the steps run on: the command's registry and executor, with how it connects a server and resolves a tool's name as exec does. */
export interface StepTools {
  config: Pick<ToolrunConfig, 'paramMappings'>;
  registry: Registry;
  executor: ToolExecutor;
  connect(names: string[]): Promise<unknown>;
  /** The tool a name stands for, on `server` or anywhere (exec's resolution, its did-you-mean included). */
  resolve(name: string, server: string | undefined): Promise<RegisteredTool>;
  /** The run's timeout for a step that sets none (--timeout; undefined: the call's own default). */
  timeoutMs: number | undefined;
}

/**
 * `toolrun test`'s steps on the command's registry: each server started once for the run (or
 * served by a live session holder), local tools run as exec runs them. A server that died is
 * started again for the next step that needs it; the step it died in fails with its cause.
 */
export function createStepRunner(
  opened: StepTools,
  onUnreachable: (server: string) => void,
  during: <T>(server: string | undefined, asks: StepRequest['asks'], call: () => Promise<T>) => Promise<T>,
): StepRunner {
  // Servers being (re)connected: steps of files running side by side wait for the same start.
  const connecting = new Map<string, Promise<unknown>>();
  const connectionOf = async (server: string): Promise<ServerConnection> => {
    const known = opened.registry.servers.get(server);
    if (known?.status === 'connected' && isConnectionLost(known.connection)) opened.registry.servers.delete(server);
    if (!opened.registry.servers.has(server)) {
      if (!connecting.has(server))
        connecting.set(
          server,
          opened.connect([server]).finally(() => connecting.delete(server)),
        );
      await connecting.get(server);
    }
    const status = opened.registry.servers.get(server);
    if (status?.status !== 'connected') {
      onUnreachable(server);
      throw new Error(`MCP server '${server}' could not be connected: ${status?.status === 'failed' ? status.failure.reason : 'unknown'}`);
    }
    return status.connection;
  };
  /**
   * The tool a `validate: false` step calls: the server's (or the local one, as a checked step
   * picks it), else the name as written, sent to the server as a tools/call all the same.
   */
  const toolAsWritten = async (name: string, server: string | undefined): Promise<RegisteredTool> => {
    if (!server) return opened.resolve(name, undefined);
    const listed = opened.registry.find(name, server) ?? opened.registry.find(name);
    if (listed && (listed.server === server || listed.server === undefined)) return listed;
    const connection = await connectionOf(server);
    const definition = { name, description: '', parameters: { type: 'object' as const } };
    return { definition, run: createMcpRunner(connection, name), source: 'mcp', server, qualifiedName: `${server}:${name}`, normalizesArgs: false, enforcesTimeout: true };
  };
  /** A tool the step's server does not list, nor toolrun: the names to suggest are that server's and the local tools'. */
  const notOnServer = (name: string, server: string) => {
    const candidates = opened.registry
      .list()
      .filter((tool) => tool.server === server || tool.server === undefined)
      .map((tool) => tool.definition.name);
    return new ToolNotFoundError(`${server}:${name}`, suggestNames(name, candidates));
  };
  const options = (request: StepRequest, signal: AbortSignal) => ({ signal, timeout: request.timeoutMs ?? opened.timeoutMs });
  return {
    run: (request, signal) => during(request.server, request.asks, () => runStep(request, signal)),
  };

  async function runStep(request: StepRequest, signal: AbortSignal): Promise<StepOutcome> {
    const started = performance.now();
    const took = () => performance.now() - started;
    const { action } = request;
    if (action.kind === 'call') {
      if (request.server) await connectionOf(request.server);
      // A local tool (math_eval, a mock) named in a file whose steps default to a server: the
      // server's tool of that name comes first, the local one when the server has none.
      // A name neither has is not looked for on the other servers (a file bound to one server tests that server): see notOnServer.
      const anywhere = opened.registry.find(action.tool);
      const local = request.server !== undefined && !opened.registry.find(action.tool, request.server) && anywhere !== undefined && anywhere.server === undefined;
      let prepared: PreparedCall;
      if (request.validate === false) {
        // Sent as written: the server's own answer to a name or arguments toolrun would refuse is what the step tests.
        prepared = { tool: await toolAsWritten(action.tool, request.server), args: request.args };
      } else {
        const tool = await opened.resolve(action.tool, local ? undefined : request.server).catch((error: unknown) => {
          throw error instanceof ToolNotFoundError && request.server && !local ? notOnServer(action.tool, request.server) : error;
        });
        try {
          prepared = await opened.executor.prepare(tool, typeStepArguments(tool, request.args, opened.config.paramMappings), { validate: true });
        } catch (error) {
          return { error: { message: describeThrown(error) }, latencyMs: took(), progress: [] };
        }
      }
      const progress: number[] = [];
      // What the tool threw: the JSON-RPC code of the server's error (-32042 included), which the envelope's message may not carry.
      let thrown: unknown;
      const { tool } = prepared;
      const watched: RegisteredTool = {
        ...tool,
        run: async (args, context) => {
          try {
            return await tool.run(args, context);
          } catch (error) {
            thrown = error;
            throw error;
          }
        },
      };
      // The call's own time: a server started for it (above) does not count.
      const callStarted = performance.now();
      const envelope = await opened.executor.executePrepared(
        { tool: watched, args: prepared.args },
        {
          signal,
          raw: true,
          // A step that says how long it may take (timeout, latencyMs) is its own judge: no "Slow tool" warning beside its result.
          silent: request.timeoutMs !== undefined || request.latencyMaxMs !== undefined,
          ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
          onProgress: (update) => progress.push(update.progress),
        },
      );
      const latencyMs = performance.now() - callStarted;
      if (envelope.success) return { result: envelope.result, latencyMs, progress };
      // A server found gone mid-run (an HTTP server that refuses the session's next request) ends the run with exit 4, as one that cannot be connected.
      if (envelope.error_kind === 'unreachable' && request.server) onUnreachable(request.server);
      const code = jsonRpcCode(thrown) ?? jsonRpcCode((thrown as { cause?: unknown } | undefined)?.cause) ?? /MCP error (-?\d+)/.exec(envelope.error)?.[1];
      return {
        ...(envelope.result !== undefined ? { result: envelope.result } : {}),
        error: { message: withStderr(envelope.error, envelope.server_stderr ?? []), ...(code !== undefined ? { code: Number(code) } : {}) },
        latencyMs,
        progress,
      };
    }
    const server = request.server;
    if (!server) throw new UsageError(`a ${action.kind} step needs a server: set \`server:\` in the file or the step, or --server`);
    const connection = await connectionOf(server);
    try {
      let result: unknown;
      if (action.kind === 'read') result = await connection.client.request('resources/read', { uri: action.uri }, options(request, signal));
      else if (action.kind === 'get') {
        const stringArgs = Object.fromEntries(Object.entries(request.args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
        result = await connection.client.request('prompts/get', { name: action.prompt, arguments: stringArgs }, options(request, signal));
      } else if (action.kind === 'skill' || action.what === 'skills') {
        // The Skills extension: loaded only by a file that has such a step.
        const { listSkillsStep, skillStep } = await import('../extensions/skills/skill-step.js');
        const outcome = action.kind === 'skill' ? await skillStep(connection.client, action.skill, options(request, signal)) : await listSkillsStep(connection.client, options(request, signal));
        return { ...outcome, latencyMs: took(), progress: [] };
      } else {
        result = action.what === 'tools' ? connection.tools : await listItems(connection.client, action.what, options(request, signal));
      }
      return { result, latencyMs: took(), progress: [] };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { error: { message: String((error as Error).message ?? error), ...(typeof code === 'number' ? { code } : {}) }, latencyMs: took(), progress: [] };
    }
  }
}
