import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/cli-support/is-local-tool.js';
import { BUILTIN_DEFINITIONS } from '../../src/tools/builtin-definitions.js';

describe('BUILTIN_TOOL_NAMES', () => {
  it('lists exactly the builtin tools (the warm exec path must not run a builtin remotely)', () => {
    expect([...BUILTIN_TOOL_NAMES].sort()).toEqual(BUILTIN_DEFINITIONS.map((definition) => definition.name).sort());
  });
});
