import { createInterface } from 'node:readline';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { checkAnswer } from '../elicit/check-answer.js';
import { requestedFields, type ElicitField } from '../elicit/requested-fields.js';
import { typeAnswer } from '../elicit/type-answer.js';
import { escapeControls } from '../output/escape-controls.js';

/** Where a person answers: lines read from `input`, questions written to `output` (stdin and stderr on a terminal). */
export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/** What ends a prompt early: `:decline` or `:cancel` typed as an answer; end of input (Ctrl-D) cancels. */
const REFUSALS = new Map([
  [':decline', 'decline'],
  [':cancel', 'cancel'],
] as const);

/**
 * Asks a person a form-mode elicitation field by field (SPEC §15): required fields marked `*`,
 * defaults shown in brackets (an empty line takes them), enums as numbered choices (a number or the
 * value), an answer that does not fit the schema asked again with the reason. Server text is
 * escaped: a message cannot move the cursor or retitle the window.
 */
export async function promptForm(server: string, params: ElicitRequest['params'], streams: PromptStreams, signal?: AbortSignal): Promise<ElicitResult> {
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  const fields = requestedFields(schema);
  return withLines(streams, signal, async (ask) => {
    streams.output.write(`server '${safe(server)}' asks: ${safe(params.message)}\n  (an empty line takes the [default]; * marks a required field; :decline or :cancel refuses)\n`);
    const content: Record<string, unknown> = {};
    for (const field of fields) {
      const answered = await askField(field, schema, ask, streams.output);
      if ('refused' in answered) return { action: answered.refused };
      if (answered.value !== undefined) Object.defineProperty(content, field.name, { value: answered.value, enumerable: true, writable: true, configurable: true });
    }
    return { action: 'accept', content: content as Record<string, string | number | boolean | string[]> };
  });
}

/**
 * A URL-mode elicitation on a terminal: the URL shown (and opened by the caller), accepted when the
 * person presses Enter, declined or cancelled when they say so.
 */
export async function promptUrl(server: string, params: { message: string; url: string }, streams: PromptStreams, signal?: AbortSignal): Promise<ElicitResult> {
  return withLines(streams, signal, async (ask) => {
    streams.output.write(`server '${safe(server)}' asks you to open a URL: ${safe(params.message)}\n\n  ${safe(params.url)}\n\n`);
    const line = await ask('Press Enter once done there (or type :decline or :cancel): ');
    if (line === undefined) return { action: 'cancel' };
    const refusal = REFUSALS.get(line.trim() as ':decline');
    return { action: refusal ?? 'accept' };
  });
}

type Ask = (question: string) => Promise<string | undefined>;

type FieldAnswer = { value: unknown } | { refused: 'decline' | 'cancel' };

async function askField(field: ElicitField, schema: unknown, ask: Ask, output: NodeJS.WritableStream): Promise<FieldAnswer> {
  if (field.description) output.write(`  ${safe(field.description)}\n`);
  if (field.choices) field.choices.forEach((choice, index) => output.write(`  ${index + 1}) ${safe(choice.label)}${choice.label !== choice.value ? ` (${safe(choice.value)})` : ''}\n`));
  const question = `${safe(field.label)}${field.required ? '*' : ''}${hintOf(field)}${field.default !== undefined ? ` [${safe(formatDefault(field.default))}]` : ''}: `;
  for (;;) {
    const line = await ask(question);
    if (line === undefined) return { refused: 'cancel' };
    const refusal = REFUSALS.get(line.trim() as ':decline');
    if (refusal) return { refused: refusal };
    if (line.trim() === '') {
      if (field.default !== undefined || !field.required) return { value: field.default };
      output.write(`  ✖ '${safe(field.name)}' is required\n`);
      continue;
    }
    const value = typeAnswer(field, choiceValues(field, line));
    const problem = checkAnswer(fieldSchema(schema, field.name), { [field.name]: value });
    if (!problem) return { value };
    output.write(`  ✖ ${safe(problem)}\n`);
  }
}

/** Choices may be answered by their number: `2` or `1,3` become their values. */
function choiceValues(field: ElicitField, line: string): string {
  if (!field.choices) return line;
  const byNumber = (word: string) => (/^\d+$/.test(word.trim()) ? (field.choices![Number(word.trim()) - 1]?.value ?? word.trim()) : word.trim());
  return field.kind === 'choices' && !line.trim().startsWith('[') ? line.split(',').map(byNumber).join(',') : byNumber(line);
}

function hintOf(field: ElicitField): string {
  if (field.kind === 'boolean') return ' (y/n)';
  if (field.kind === 'choice') return ` (1-${field.choices!.length})`;
  if (field.kind === 'choices') return ' (numbers or values, comma-separated)';
  if (field.kind === 'number' || field.kind === 'integer') return ` (${field.kind})`;
  return '';
}

/** The part of the requested schema about one field: a re-ask names only that field's problem. */
function fieldSchema(schema: unknown, name: string): Record<string, unknown> {
  const properties = ((schema as { properties?: Record<string, unknown> })?.properties ?? {}) as Record<string, unknown>;
  return { type: 'object', properties: { [name]: properties[name] ?? {} } };
}

function formatDefault(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function safe(text: unknown): string {
  return escapeControls(String(text ?? ''));
}

/**
 * Runs `body` with a line reader on the streams. Lines are buffered (piped answers arrive before
 * they are asked for); the end of input (Ctrl-D) and Ctrl-C answer undefined.
 */
async function withLines(streams: PromptStreams, signal: AbortSignal | undefined, body: (ask: Ask) => Promise<ElicitResult>): Promise<ElicitResult> {
  const lines = createInterface({ input: streams.input, output: streams.output, terminal: Boolean((streams.input as { isTTY?: boolean }).isTTY) });
  // On a terminal readline reads Ctrl-C as a key: it is passed on as the signal toolrun stops on.
  lines.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  const onAbort = () => lines.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  const reader = lines[Symbol.asyncIterator]();
  const ask: Ask = async (question) => {
    if (signal?.aborted) return undefined;
    // The question as readline's prompt: on a terminal, editing the line redraws it rather than erasing it.
    lines.setPrompt(question);
    lines.prompt();
    const next = await reader.next().catch(() => ({ done: true, value: undefined }));
    return next.done ? undefined : (next.value as string);
  };
  try {
    return await body(ask);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    lines.close();
  }
}
