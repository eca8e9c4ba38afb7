import { isDeepStrictEqual } from 'node:util';
import { isObject } from '../record/compare-messages.js';
import type { RegisteredTool } from '../registry/tool-types.js';
import type { Readable } from 'node:stream';
import { stringify } from 'yaml';
import { recordedBytes, recordingReader, type RecordingHeader } from '../record/recording.js';
import { normalizeForSnapshot } from './snapshots.js';

/** A recorded call that becomes a test: what was asked, and what came back. */
export interface RecordedCall {
  method: 'tools/call' | 'resources/read' | 'prompts/get';
  params: Record<string, unknown>;
  result?: unknown;
  error?: { code?: number; message?: string };
  /** false: toolrun's own check would refuse the call (an unknown tool, arguments its schema refuses) or send it changed: the test sends it as recorded. */
  validate?: false;
}

const TESTED = new Set(['tools/call', 'resources/read', 'prompts/get']);

export interface GeneratedSuite {
  /** The test file's text (YAML). */
  text: string;
  /** Test name → the recorded answer, normalised: the suite's snapshots. */
  snapshots: Map<string, unknown>;
  tests: number;
  server?: string;
}

/**
 * A recording (`--record`, `mcp tap --record`) made into a test file (SPEC §18): every tools/call,
 * resources/read and prompts/get the client made and the server answered becomes a test, in order,
 * whose snapshot is the recorded answer. A call answered with an error expects that error's code.
 * Requests without an answer (the session ended first) are left out.
 */
export async function testsFromRecording(stream: Readable, options: { server?: string; source: string }): Promise<GeneratedSuite> {
  let header: RecordingHeader | undefined;
  const asked = new Map<string, RecordedCall>();
  const calls: RecordedCall[] = [];
  // The tools the server listed in the session (every page): what toolrun checks a call against.
  const listAsked = new Set<string>();
  let listed: Map<string, Record<string, unknown>> | undefined;
  const reader = recordingReader(
    (entry) => {
      if (entry.dir === 'stderr') return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(recordedBytes(entry).toString('utf8')) as Record<string, unknown>;
      } catch {
        return;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
      const id = typeof message.id === 'string' || typeof message.id === 'number' ? JSON.stringify(message.id) : undefined;
      if (id === undefined) return;
      if (entry.dir === 'send' && message.method === 'tools/list') listAsked.add(id);
      else if (entry.dir === 'recv' && listAsked.delete(id) && isObject(message.result) && Array.isArray(message.result.tools)) {
        listed ??= new Map();
        for (const tool of message.result.tools as unknown[])
          if (isObject(tool) && typeof tool.name === 'string') listed.set(tool.name, isObject(tool.inputSchema) ? tool.inputSchema : { type: 'object' });
      }
      if (entry.dir === 'send' && typeof message.method === 'string' && TESTED.has(message.method)) {
        const call: RecordedCall = { method: message.method as RecordedCall['method'], params: (message.params as Record<string, unknown>) ?? {} };
        asked.set(id, call);
        calls.push(call);
      } else if (entry.dir === 'recv' && message.method === undefined) {
        const call = asked.get(id);
        if (!call) return;
        asked.delete(id);
        if ('error' in message) call.error = message.error as RecordedCall['error'];
        else call.result = message.result;
      }
    },
    (first) => (header = first),
  );
  for await (const chunk of stream) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  reader.end();
  for (const call of calls) if (call.method === 'tools/call' && !(await passesToolrunCheck(call, listed))) call.validate = false;
  return suiteFromCalls(calls, { server: options.server ?? header!.server, made: `toolrun test --from ${options.source} (server ${options.server ?? header!.server}, recorded ${header!.started})` });
}

/**
 * Calls and their answers made into a test file, in order: each answered call a test whose snapshot
 * is its answer (`--from RECORDING`, and the shell's `.save FILE`). `server`, when given, is the
 * file's; a call may also name its own server (`call: SERVER:TOOL`).
 */
export function suiteFromCalls(calls: RecordedCall[], options: { server?: string; made: string }): GeneratedSuite {
  const server = options.server;
  const counts = new Map<string, number>();
  const snapshots = new Map<string, unknown>();
  const tests = calls
    .filter((call) => call.result !== undefined || call.error !== undefined)
    .map((call) => {
      const [key, target] = call.method === 'tools/call' ? ['call', call.params.name] : call.method === 'resources/read' ? ['read', call.params.uri] : ['get', call.params.name];
      const label = `${key} ${String(target)}`;
      const number = (counts.get(label) ?? 0) + 1;
      counts.set(label, number);
      const name = `${label} #${number}`;
      const args = call.method === 'resources/read' ? undefined : (call.params.arguments as Record<string, unknown> | undefined);
      const failed = call.error !== undefined || (isObject(call.result) && call.result.isError === true);
      let expect: Record<string, unknown>;
      if (call.error !== undefined) expect = { error: call.error.code !== undefined ? { code: call.error.code } : true };
      else {
        expect = failed ? { error: true, snapshot: true } : { snapshot: true };
        snapshots.set(name, normalizeForSnapshot(call.result, []));
      }
      return { name, [key]: String(target), ...(args && Object.keys(args).length > 0 ? { args } : {}), ...(call.validate === false ? { validate: false } : {}), expect };
    });
  const head = [
    `# Generated by ${options.made}.`,
    '# Each test expects what the server answered then: its snapshot is in __snapshots__/ beside this file.',
    '# Run it: toolrun test FILE · after an intended change of the server: toolrun test FILE --update',
  ];
  const text = `${head.join('\n')}\n${stringify(server ? { server, tests } : { tests }, { lineWidth: 0 })}`;
  return { text, snapshots, tests: tests.length, server };
}

/**
 * Would `toolrun test` send this recorded call as it was recorded? Its tool must be one the server
 * listed, and its arguments pass toolrun's own check (the executor's, as exec and the test runner
 * apply it) unchanged by the typing and the renaming toolrun does. Without a tools/list in the
 * recording, a call the server answered with an error is taken as one toolrun may refuse.
 */
async function passesToolrunCheck(call: RecordedCall, listed: Map<string, Record<string, unknown>> | undefined): Promise<boolean> {
  const failed = call.error !== undefined || (isObject(call.result) && call.result.isError === true);
  if (!listed) return !failed;
  const name = String(call.params.name);
  const parameters = listed.get(name);
  if (!parameters) return false;
  const args = call.params.arguments ?? {};
  if (!isObject(args)) return false;
  const [{ ToolExecutor }, { ToolRegistry }, { typeStepArguments }] = await Promise.all([
    import('../executor/tool-executor.js'),
    import('../registry/tool-registry.js'),
    import('./type-step-arguments.js'),
  ]);
  const tool: RegisteredTool = { definition: { name, description: '', parameters }, run: async () => undefined, source: 'mcp', qualifiedName: name, normalizesArgs: true };
  // The test runner's typing of a step's arguments, then the executor's check: the call must come out as recorded.
  try {
    const prepared = await new ToolExecutor(new ToolRegistry()).prepare(tool, typeStepArguments(tool, args, {}), { validate: true });
    return isDeepStrictEqual(prepared.args, args);
  } catch {
    return false;
  }
}
