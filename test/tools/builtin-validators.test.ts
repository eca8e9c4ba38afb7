import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateBuiltinValidators } from '../../scripts/generate-validators.js';
import { BUILTIN_TOOLS } from '../../src/tools/builtin-tools.js';
import { compileArgsValidator } from '../../src/schema/compile-schema.js';

describe('precompiled builtin validators', () => {
  it('are up to date with the builtin schemas (run node scripts/generate-validators.js)', async () => {
    const committed = readFileSync(new URL('../../src/tools/builtin-validators.generated.js', import.meta.url), 'utf8');
    expect(committed).toBe(await generateBuiltinValidators());
  });

  it.each([{}, { expression: 1 }, { expression: 'x' }, [], { timezone: 5 }])('agree with the runtime compiler on %j', (args) => {
    for (const builtin of Object.values(BUILTIN_TOOLS)) {
      expect(builtin.validator(args)).toEqual(compileArgsValidator(builtin.definition.parameters)(args));
    }
  });
});
