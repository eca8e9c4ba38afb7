import type { LanguageModel } from 'ai';
import type { ToolExecutor } from '../executor/tool-executor.js';
import { describeThrown } from '../errors.js';
import { CassetteMissError } from './cassette/cassette-fetch.js';
import { textOf } from '../testing/match-expectations.js';
import type { EvalCase } from './eval-file-types.js';
import type { EvalCall, EvalRun, EvalTurn } from './eval-result.js';
import { judgeRun } from './judge-run.js';
import type { PresentedTool } from './present-tools.js';

/** Fixed so a provider that samples with a seed samples the same way each run (and each cassette key is stable). */
export const EVAL_SEED = 52;

export interface CaseRunContext {
  model: LanguageModel;
  tools: PresentedTool[];
  executor: ToolExecutor;
  signal: AbortSignal;
}

/**
 * One run of a case: the prompt to the model with the presented tools; each call it makes runs the
 * real tool (a presented name mapped back to it) and its result goes back, until the model answers or
 * maxTurns model requests were made (the AI SDK's generateText with stepCountIs). Temperature 0 and
 * a fixed seed; no retries (a retried request would be a second, different cassette entry).
 */
export async function runEvalCase(evalCase: EvalCase, context: CaseRunContext): Promise<EvalRun> {
  const { generateText, jsonSchema, stepCountIs, tool } = await import('ai');
  // The AI SDK writes its warnings (a setting a provider ignores: Anthropic takes no seed) with
  // console.info/warn, which would land in --json's stdout; they are kept in the run instead
  // (node_modules/ai/dist/index.mjs, logWarnings). A caller's own setting is left as it is.
  const sdkGlobals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (sdkGlobals.AI_SDK_LOG_WARNINGS === undefined) sdkGlobals.AI_SDK_LOG_WARNINGS = false;
  const byName = new Map(context.tools.map((presented) => [presented.name, presented]));
  const tools = Object.fromEntries(
    context.tools.map((presented) => [
      presented.name,
      tool({
        description: presented.description,
        inputSchema: jsonSchema(presented.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async (input: unknown) => runTool(presented, input, context),
      }),
    ]),
  );
  const started = performance.now();
  try {
    const result = await generateText({
      model: context.model,
      prompt: evalCase.prompt,
      tools,
      stopWhen: stepCountIs(evalCase.expect.maxTurns),
      temperature: 0,
      seed: EVAL_SEED,
      maxRetries: 0,
      abortSignal: context.signal,
    });
    const latencyMs = performance.now() - started;
    const turns: EvalTurn[] = result.steps.map((step) => ({
      text: step.text,
      calls: callsOf(step.content as ContentPart[], byName),
      finishReason: step.finishReason,
      inputTokens: step.usage.inputTokens ?? 0,
      outputTokens: step.usage.outputTokens ?? 0,
    }));
    const answered = result.steps.at(-1)?.finishReason !== 'tool-calls';
    const calls = turns.flatMap((turn) => turn.calls);
    const warnings = [...new Set(result.steps.flatMap((step) => (step.warnings ?? []).map((warning) => JSON.stringify(warning))))];
    const failures = judgeRun(evalCase.expect, calls, answered, result.text);
    return {
      pass: failures.length === 0,
      failures,
      turns,
      answer: result.text,
      inputTokens: sum(turns.map((turn) => turn.inputTokens)),
      outputTokens: sum(turns.map((turn) => turn.outputTokens)),
      latencyMs,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  } catch (error) {
    const message = describeThrown(error);
    const miss = causes(error).find((cause) => cause instanceof CassetteMissError);
    return {
      pass: false,
      // A replay miss is the request having changed (a prompt, a tool, a host's presentation) since the recording: --record refreshes.
      failures: [miss ? `the cassettes have no answer for this request: ${describeThrown(miss)}` : `the model could not be asked: ${message}`],
      turns: [],
      answer: '',
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: performance.now() - started,
      error: message,
      ...(isUnreachable(error) ? { unreachable: true } : {}),
    };
  }
}

/** The real tool, run as exec runs it (arguments checked against its schema); a failure is told to the model as text. */
async function runTool(presented: PresentedTool, input: unknown, context: CaseRunContext): Promise<string> {
  const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  try {
    const prepared = await context.executor.prepare(presented.tool, args, { validate: true });
    const envelope = await context.executor.executePrepared(prepared, { signal: context.signal, raw: true, silent: true });
    return envelope.success ? textOf(envelope.result) : `Error: ${envelope.error}`;
  } catch (error) {
    return `Error: ${describeThrown(error)}`;
  }
}

type ContentPart = { type: string; toolCallId?: string; toolName?: string; input?: unknown; output?: unknown; error?: unknown };

/** A step's tool calls with what each got back (a result, or an error: a bad name, bad arguments). */
function callsOf(content: ContentPart[], byName: Map<string, PresentedTool>): EvalCall[] {
  return content
    .filter((part) => part.type === 'tool-call')
    .map((call) => {
      const answer = content.find((part) => (part.type === 'tool-result' || part.type === 'tool-error') && part.toolCallId === call.toolCallId);
      const output = answer?.type === 'tool-result' ? String(answer.output) : answer?.type === 'tool-error' ? `Error: ${describeThrown(answer.error)}` : '';
      const presented = byName.get(call.toolName ?? '');
      return {
        calledAs: call.toolName ?? '',
        ...(presented ? { tool: presented.tool.definition.name } : {}),
        args: call.input,
        output,
        failed: answer?.type !== 'tool-result' || output.startsWith('Error: '),
      };
    });
}

/** An error and its causes, outermost first (the AI SDK wraps what a provider's fetch throws). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause: unknown = error; cause && chain.length < 6; cause = (cause as { cause?: unknown }).cause) chain.push(cause);
  return chain;
}

/** The endpoint could not be reached (refused, no such host, reset): exit 4, not a failed case. Decided by error codes, never by message text. */
function isUnreachable(error: unknown): boolean {
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET'].includes(code)) return true;
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isUnreachable(inner))) return true;
  }
  return false;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
