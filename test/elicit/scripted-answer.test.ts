import { describe, expect, it } from 'vitest';
import { parseArgWords } from '../../src/args/parse-tool-args.js';
import { parseAnswersFile } from '../../src/elicit/answers-file.js';
import { requestedFields } from '../../src/elicit/requested-fields.js';
import { answerScripted } from '../../src/elicit/scripted-answer.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    plan: { type: 'string', oneOf: [{ const: 'free', title: 'Free' }], default: 'free' },
    tags: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'A' },
          { const: 'b', title: 'B' },
        ],
      },
    },
  },
  required: ['name'],
};
const form = { message: 'm', requestedSchema: SCHEMA } as never;

describe('requestedFields', () => {
  it('reads kinds, required, defaults and titled choices (single and multi-select)', () => {
    expect(requestedFields(SCHEMA).map(({ name, kind, required, default: value, choices }) => ({ name, kind, required, value, choices }))).toEqual([
      { name: 'name', kind: 'string', required: true, value: undefined, choices: undefined },
      { name: 'age', kind: 'integer', required: false, value: undefined, choices: undefined },
      { name: 'plan', kind: 'choice', required: false, value: 'free', choices: [{ value: 'free', label: 'Free' }] },
      {
        name: 'tags',
        kind: 'choices',
        required: false,
        value: undefined,
        choices: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
    ]);
  });
});

describe('answerScripted', () => {
  it('--answer words typed by the schema, defaults filled in; words for other fields left for another request', () => {
    const outcome = answerScripted(form, { words: parseArgWords(['name=Ada', 'age=7', 'tags=a,b', 'other=x']) }, 0);
    expect(outcome).toEqual({ kind: 'answered', result: { action: 'accept', content: { plan: 'free', name: 'Ada', age: 7, tags: ['a', 'b'] } } });
  });

  it('an answer that does not fit names the problem and the fields asked for', () => {
    expect(answerScripted(form, { words: parseArgWords(['name=Ada', 'age=seven']) }, 0)).toEqual({
      kind: 'unfit',
      source: '--answer',
      problem: "'age' must be integer",
      fields: 'name* (string), age (integer), plan (one of free), tags (any of a|b)',
    });
  });

  it('file rounds first (by turn), then --elicit; nothing given is unanswered', () => {
    const rounds = parseAnswersFile('[{"name":"Ada"},{"action":"cancel"}]', 'f');
    expect(answerScripted(form, { words: [], rounds, action: 'decline' }, 0)).toEqual({ kind: 'answered', result: { action: 'accept', content: { plan: 'free', name: 'Ada' } } });
    expect(answerScripted(form, { words: [], rounds, action: 'decline' }, 1)).toEqual({ kind: 'answered', result: { action: 'cancel' } });
    expect(answerScripted(form, { words: [], rounds, action: 'decline' }, 2)).toEqual({ kind: 'answered', result: { action: 'decline' } });
    expect(answerScripted(form, { words: [] }, 0)).toEqual({ kind: 'unanswered' });
  });

  it('URL mode: accepted only when told to', () => {
    const url = { mode: 'url', message: 'm', url: 'https://x', elicitationId: '1' } as never;
    expect(answerScripted(url, { words: [] }, 0)).toEqual({ kind: 'unanswered' });
    expect(answerScripted(url, { words: [], action: 'accept' }, 0)).toEqual({ kind: 'answered', result: { action: 'accept' } });
  });
});

describe('parseAnswersFile', () => {
  it('takes an array of rounds or one object; a round is {action, content?}, any other object is content', () => {
    expect(parseAnswersFile('{"action":"decline"}', 'f')).toEqual([{ action: 'decline' }]);
    expect(parseAnswersFile('[{"action":"on","mode":1}]', 'f')).toEqual([{ action: 'accept', content: { action: 'on', mode: 1 } }]);
  });

  it('refuses what is not rounds, naming the round', () => {
    expect(() => parseAnswersFile('[1]', 'f')).toThrow('f round 1 must be an object');
    expect(() => parseAnswersFile('[{},{"action":"accept","content":[]}]', 'f')).toThrow('f round 2: content must be an object of field values');
  });
});
