import { describe, expect, it } from 'vitest';
import { formatConformReport } from '../../src/output/format-conform-report.js';
import { createStyle } from '../../src/output/style.js';
import { HOSTILE, check, mixedReport, report } from './conform-report-fixtures.js';

const plain = await createStyle(false);
const colored = await createStyle(true);

describe('formatConformReport: the table of mcp conform', () => {
  it('prints a header, one row per check, evidence under failures and warnings, and the summary', () => {
    const lines = formatConformReport(mixedReport(), plain).split('\n');
    expect(lines[0]).toBe('toolrun mcp conform everything (stdio, 2025-11-25, profile toolrun@1)');
    expect(lines[1]).toBe('✔ lifecycle.initialize   initialize answered with 2025-11-25');
    expect(lines[2]).toBe('✘ tools.input-schema     tool "broken" has no inputSchema');
    expect(lines[3]).toBe('    result.tools[1] has no inputSchema');
    expect(lines[4]).toBe('      at result.tools[1].inputSchema, stdout line 7');
    expect(lines[5]).toMatch(/^ {6}received \{"jsonrpc":"2\.0","id":2,"result":\{"tools":\[\{"name":"ok"/);
    expect(lines[5]!.endsWith('…')).toBe(true);
    expect(lines[5]!.length).toBe(6 + 'received '.length + 160);
    expect(lines[6]).toBe('! ping                   ping answered in 1800 ms');
    expect(lines[7]).toBe('    slow answer');
    expect(lines[8]).toBe('- tools.call-structured  no tool was called (use --call or --call-all)');
    expect(lines[9]).toBe('1 passed, 1 failed, 1 warning, 1 skipped in 1.4 s');
    expect(lines).toHaveLength(10);
  });

  it('says the counts with plurals and zeroes, and the time in seconds', () => {
    const checks = [...Array(12)].map((_, index) => check({ id: `c${index}`, verdict: 'pass' }));
    const text = formatConformReport(report([...checks, check({ id: 'w1', verdict: 'warn' }), check({ id: 'w2', verdict: 'warn' })], { durationMs: 380 }), plain);
    expect(text.split('\n').at(-1)).toBe('12 passed, 0 failed, 2 warnings, 0 skipped in 0.4 s');
  });

  it('prints one line when the server could not be reached', () => {
    const text = formatConformReport(report([], { unreachable: 'spawn nosuchserver ENOENT', protocolVersion: undefined }), plain);
    expect(text).toBe('✘ everything (stdio) unreachable: spawn nosuchserver ENOENT');
  });

  it('colors the marks and the summary through the style only', () => {
    const text = formatConformReport(mixedReport(), colored);
    expect(text).toContain('\u001b[32m✔\u001b[39m');
    expect(text).toContain('\u001b[31m✘\u001b[39m');
    expect(text).toContain('\u001b[33m!\u001b[39m');
    expect(formatConformReport(mixedReport(), plain)).not.toContain('\u001b');
  });

  it('escapes every control a server sent: no row can be forged, no screen cleared', () => {
    const hostile = report(
      [
        check({
          id: 'tools.names',
          verdict: 'fail',
          message: `tool ${HOSTILE} is badly named`,
          evidence: [{ detail: HOSTILE, path: `result.tools[0].name${HOSTILE}`, frame: { name: HOSTILE } }],
        }),
      ],
      { server: `srv${HOSTILE}` },
    );
    for (const style of [plain, colored]) {
      const text = formatConformReport(hostile, style);
      // Only SGR colors of our own style remain; no NUL, no CSI/OSC from the server, no CR, no C1.
      expect(text.replace(/\u001b\[\d+m/g, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(text.split('\n')).toHaveLength(6);
      expect(text).toContain('\\x1b[2J');
      expect(text).not.toMatch(/^forged/m);
    }
  });

  it('keeps rows within 100 columns: a long message is cut, long ids widen the column up to a bound', () => {
    const text = formatConformReport(report([check({ id: 'resources.read-listed', verdict: 'fail', message: 'y'.repeat(400) })]), plain);
    const row = text.split('\n')[1]!;
    expect(row.length).toBe(100);
    expect(row.endsWith('…')).toBe(true);
  });

  it('shows at most five evidence entries per check and says how many more there are', () => {
    const evidence = [...Array(8)].map((_, index) => ({ detail: `frame ${index} invalid` }));
    const lines = formatConformReport(report([check({ id: 'schema.frames', verdict: 'fail', evidence })]), plain).split('\n');
    expect(lines.filter((line) => /^ {4}frame \d invalid$/.test(line))).toHaveLength(5);
    expect(lines).toContain('    … 3 more (--json or --junit has them all)');
  });
});
