import { describe, expect, it } from 'vitest';
import { expandEnv, listEnvReferences } from '../../src/config/expand-env.js';

const env = { B: 'bee', EMPTY: '' };

describe('expandEnv', () => {
  it.each([
    ['${A:-${B}}', 'bee'],
    ['${A:-${C:-deep}}', 'deep'],
    ['${A:-x${B}y}', 'xbeey'],
    ['$${X}', '${X}'],
    ['x$${X}y${B}', 'x${X}ybee'],
    ['${A:-$${B}}', '${B}'],
    ['${env:B}', 'bee'],
    ['${EMPTY}', ''],
    ['${A:-}', ''],
    ['price $5 and a$b', 'price $5 and a$b'],
  ])('%s → %s', (value, expected) => {
    expect(expandEnv(value, env, { file: 'where' })).toBe(expected);
  });

  it.each([
    ['${A}', 'where: environment variable A is not set'],
    ['${A:-${C}}', 'where: environment variable C is not set'],
    ['${input:token}', 'only VS Code can fill in'],
    ['${1x}', 'is not a valid variable reference'],
    ['${A', "has no closing '}'"],
  ])('%s is a config error', (value, message) => {
    expect(() => expandEnv(value, env, { file: 'where' })).toThrow(message);
  });

  it('defaults nested 16 deep expand; deeper is a config error naming the limit, not a stack overflow', () => {
    const nested = (depth: number) => `${'${A:-'.repeat(depth)}end${'}'.repeat(depth)}`;
    expect(expandEnv(nested(16), env, { file: 'where' })).toBe('end');
    for (const depth of [17, 3000, 100_000]) {
      expect(() => expandEnv(nested(depth), env, { file: 'where' })).toThrow(
        "where: '${A:-${A:-${A:-${A:-${A:-${A:-${A:-${A:-…' nests ${…} more than 16 levels deep; a default that deep is a mistake. Simplify it",
      );
    }
    expect(listEnvReferences(nested(100_000))).toEqual([]);
  });

  it('an escaped host-only variable is text, not a VS Code variable', () => {
    expect(expandEnv('$${input:token}', env, { file: 'where' })).toBe('${input:token}');
  });

  it('lists references, defaults included, not escaped ones', () => {
    expect(listEnvReferences('${A:-${B}} $${Z} ${C}')).toEqual(['A', 'B', 'C']);
  });
});
