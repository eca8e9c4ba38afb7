import { describe, expect, it } from 'vitest';
import type { LintReport } from '../../src/lint/lint-types.js';
import { formatLintSarif } from '../../src/output/format-lint-sarif.js';

describe('formatLintSarif: the tool it names', () => {
  it('toolrun by name and version, with no informationUri: toolrun has no published page (npmjs.com/package/toolrun is a 404)', () => {
    const report: LintReport = {
      targets: [{ name: 'openai', version: 1, title: 'OpenAI' }],
      servers: [{ server: 'api', tools: 1 }],
      findings: [
        {
          rule: 'openai/name-pattern',
          target: 'openai',
          severity: 'error',
          server: 'api',
          tool: 'bad name',
          path: '$.name',
          message: 'the name has a space',
          fix: 'rename it',
          source: 'https://platform.openai.com/docs/guides/function-calling',
        },
      ],
      errors: 1,
    };
    const sarif = JSON.parse(formatLintSarif(report, { version: '0.1.0', locate: () => undefined }));
    const driver = sarif.runs[0].tool.driver;
    expect(driver).toMatchObject({ name: 'toolrun', version: '0.1.0' });
    expect(driver).not.toHaveProperty('informationUri');
    // The rule keeps its source as helpUri: that page exists.
    expect(driver.rules[0].helpUri).toBe('https://platform.openai.com/docs/guides/function-calling');
  });
});
