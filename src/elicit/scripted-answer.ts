import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ArgWord } from '../args/parse-tool-args.js';
import type { ElicitAction, ScriptedRound } from './answers-file.js';
import { checkAnswer } from './check-answer.js';
import { defaultsOf, requestedFields } from './requested-fields.js';
import { typeAnswer } from './type-answer.js';

/** How elicitations are answered without a person (SPEC §15): the flags, as given. */
export interface ScriptedAnswers {
  /** `--answer field=value` words, parsed. */
  words: ArgWord[];
  /** `--answers FILE`, one per elicitation in turn. */
  rounds?: ScriptedRound[];
  /** `--answers FILE`, as named (for messages). */
  roundsFile?: string;
  /** `--elicit`. */
  action?: ElicitAction;
}

export type ScriptedOutcome =
  | { kind: 'answered'; result: ElicitResult }
  /** Nothing says how to answer: decline, and say how. */
  | { kind: 'unanswered' }
  /** The answer given does not fit the schema asked with (`source` names where it came from; `fields` lists what was asked, `*` required). */
  | { kind: 'unfit'; source: string; problem: string; fields: string };

/**
 * The answer to the `turn`-th elicitation (0-based) of a command from the flags: the file's round
 * for that turn first, then `--elicit decline|cancel`, then an accept made of the schema's defaults
 * and the `--answer` values (typed by the schema), checked against the schema before it is sent.
 */
export function answerScripted(params: ElicitRequest['params'], answers: ScriptedAnswers, turn: number): ScriptedOutcome {
  const round = answers.rounds?.[turn];
  const isUrl = (params as { mode?: string }).mode === 'url';
  if (round && (round.action !== 'accept' || isUrl)) return { kind: 'answered', result: { action: round.action } };
  if (!round && (answers.action === 'decline' || answers.action === 'cancel')) return { kind: 'answered', result: { action: answers.action } };
  if (isUrl) return answers.action === 'accept' ? { kind: 'answered', result: { action: 'accept' } } : { kind: 'unanswered' };
  if (!round && answers.action !== 'accept' && answers.words.length === 0) return { kind: 'unanswered' };
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  const fields = requestedFields(schema);
  const given = round ? (round.content ?? {}) : typedWords(answers.words, fields);
  const content = { ...defaultsOf(fields), ...given };
  const problem = checkAnswer(schema, content);
  if (problem) {
    const asked = fields
      .map(
        (field) =>
          `${field.name}${field.required ? '*' : ''} (${field.kind === 'choice' || field.kind === 'choices' ? `${field.kind === 'choice' ? 'one' : 'any'} of ${field.choices!.map((choice) => choice.value).join('|')}` : field.kind})`,
      )
      .join(', ');
    return { kind: 'unfit', source: round ? `${answers.roundsFile ?? '--answers'} round ${turn + 1}` : answers.words.length > 0 ? '--answer' : '--elicit accept', problem, fields: asked };
  }
  return { kind: 'answered', result: { action: 'accept', content: content as Record<string, string | number | boolean | string[]> } };
}

/** `--answer` words typed by the fields asked for; words naming no field of this request are for another one. */
function typedWords(words: ArgWord[], fields: ReturnType<typeof requestedFields>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const { key, value, isJson } of words) {
    const field = fields.find((each) => each.name === key);
    if (!field && fields.length > 0) continue;
    // defineProperty: a field named `__proto__` stays a field.
    Object.defineProperty(content, key, { value: isJson ? (JSON.parse(value) as unknown) : typeAnswer(field, value), enumerable: true, writable: true, configurable: true });
  }
  return content;
}
