import { describe, expect, it } from 'vitest';
import { coerceArgWords } from '../../src/args/coerce-args.js';
import { parseArgWords } from '../../src/args/parse-tool-args.js';
import { readArgsOption } from '../../src/args/read-args-option.js';
import { UsageError } from '../../src/errors.js';

const properties: Record<string, unknown> = {
  level: { type: 'integer' },
  ratio: { type: 'number' },
  enabled: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  opts: { type: 'object' },
  name: { type: 'string' },
  either: { type: ['string', 'number'] },
  nullableCount: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
};
const coerce = (words: string[]) => coerceArgWords(parseArgWords(words), (key) => properties[key]);

describe('ARGS grammar', () => {
  it('types key=value by the schema', () => {
    expect(coerce(['level=50', 'ratio=0.5', 'enabled=true', 'tags=["a","b"]', 'opts={"deep":true}', 'name=50'])).toEqual({
      level: 50,
      ratio: 0.5,
      enabled: true,
      tags: ['a', 'b'],
      opts: { deep: true },
      name: '50',
    });
  });

  it('keeps strings where the schema allows a string, or says nothing', () => {
    expect(coerce(['either=5', 'unknown=5', 'name=a=b'])).toEqual({ either: '5', unknown: '5', name: 'a=b' });
  });

  it('looks through anyOf', () => {
    expect(coerce(['nullableCount=null', 'level=7'])).toEqual({ nullableCount: null, level: 7 });
  });

  it('leaves a value that is not JSON as a string, for validation to name', () => {
    expect(coerce(['level=abc'])).toEqual({ level: 'abc' });
  });

  it('reads key:=json as JSON always', () => {
    expect(coerce(['name:=3', 'opts:={"a":[1]}', 'empty:=""'])).toEqual({ name: 3, opts: { a: [1] }, empty: '' });
  });

  it('lets a later word win', () => {
    expect(coerce(['level=1', 'level=2'])).toEqual({ level: 2 });
  });

  it('rejects a bare word', () => {
    expect(() => parseArgWords(['foo'])).toThrow(new UsageError("argument 'foo' is not key=value; write foo=<value>, or foo:=<json> for a JSON value"));
  });

  it('rejects =value with no key', () => {
    expect(() => parseArgWords(['=3'])).toThrow(new UsageError("argument '=3' has no name before '='; write name=3"));
    expect(() => parseArgWords([':=3'])).toThrow(new UsageError("argument ':=3' has no name before ':='; write name:=3"));
  });

  it('rejects := with invalid JSON, naming the key', () => {
    expect(() => parseArgWords(['count:=abc'])).toThrow(/^invalid JSON for 'count' in 'count:=abc': .*; quote strings inside the JSON: count:='"text"'$/);
  });
});

describe('--args', () => {
  const noStdin = { readStdin: async () => '' };

  it('parses inline JSON', async () => {
    expect(await readArgsOption('{"a":1}', noStdin)).toEqual({ a: 1 });
  });

  it('reads stdin for -', async () => {
    expect(await readArgsOption('-', { readStdin: async () => '{"expression":"1+1"}\n' })).toEqual({ expression: '1+1' });
  });

  it('fails on empty stdin', async () => {
    await expect(readArgsOption('-', noStdin)).rejects.toThrow(/^--args - \(standard input\) was empty; pipe a JSON object/);
  });

  it('fails on a missing file', async () => {
    await expect(readArgsOption('@missing.json', noStdin)).rejects.toThrow('cannot read --args @missing.json: no such file; check the path (relative to the current folder)');
  });

  it('fails on JSON that is not an object', async () => {
    await expect(readArgsOption('[1,2]', noStdin)).rejects.toThrow(`--args must be a JSON object of arguments, found an array; e.g. --args '{"expression":"2+2"}'`);
    await expect(readArgsOption('"x"', noStdin)).rejects.toThrow(/found a string/);
    await expect(readArgsOption('null', noStdin)).rejects.toThrow(/found null/);
  });

  it('fails on malformed JSON with a fix', async () => {
    await expect(readArgsOption('{a:1}', noStdin)).rejects.toThrow(/^invalid JSON for --args: .*; give a JSON object/);
  });
});
