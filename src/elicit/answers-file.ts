import { UsageError } from '../errors.js';

const ACTIONS = ['accept', 'decline', 'cancel'] as const;
export type ElicitAction = (typeof ACTIONS)[number];

/** One scripted answer of `--answers FILE`: used for the elicitation of its turn (the first for the first, …). */
export interface ScriptedRound {
  action: ElicitAction;
  /** The fields of an accept (the schema's defaults fill the rest). */
  content?: Record<string, unknown>;
}

/**
 * Reads the rounds of an `--answers FILE`: a JSON array, one entry per elicitation in the order the
 * server asks, each `{"action": "accept"|"decline"|"cancel", "content": {…}}` or just the content
 * object of an accept (a single object is one round). An object whose only keys are `action` (one
 * of the three) and `content` is a round; any other object is content. Checked before any server
 * starts: a file of the wrong shape is a usage error naming the round.
 */
export function parseAnswersFile(text: string, where: string): ScriptedRound[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not JSON: ${(error as Error).message}; write a JSON array of rounds, e.g. [{"action":"accept","content":{"name":"Ada"}}]`);
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  return entries.map((entry, index) => roundOf(entry, `${where} round ${index + 1}`));
}

function roundOf(entry: unknown, where: string): ScriptedRound {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new UsageError(
      `${where} must be an object ({"action":"accept","content":{…}} or the content itself), found ${entry === null ? 'null' : Array.isArray(entry) ? 'an array' : `a ${typeof entry}`}`,
    );
  }
  const record = entry as Record<string, unknown>;
  const keys = Object.keys(record);
  const isRound = 'action' in record && keys.every((key) => key === 'action' || key === 'content');
  if (!isRound) return { action: 'accept', content: record };
  if (!ACTIONS.includes(record.action as ElicitAction)) throw new UsageError(`${where}: action must be accept, decline or cancel, found ${JSON.stringify(record.action)}`);
  if (record.content === undefined) return { action: record.action as ElicitAction };
  if (typeof record.content !== 'object' || record.content === null || Array.isArray(record.content)) throw new UsageError(`${where}: content must be an object of field values`);
  return { action: record.action as ElicitAction, content: record.content as Record<string, unknown> };
}
