import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithubAnnotations } from '../../src/output/format-github-annotations.js';
import { HOSTILE, check, mixedReport, report } from './conform-report-fixtures.js';

describe('formatGithubAnnotations: mcp conform in GitHub Actions', () => {
  it('writes one ::error per failed check and one ::warning per warned one, none for passes and skips', () => {
    expect(formatGithubAnnotations(mixedReport())).toEqual([
      '::error title=toolrun@1%3A tools.input-schema::Every tool has an inputSchema: tool "broken" has no inputSchema%0Aresult.tools[1] has no inputSchema (at result.tools[1].inputSchema) (stdout line 7)%0Aspec: server/tools#tool',
      '::warning title=toolrun@1%3A ping::ping answers: ping answered in 1800 ms%0Aslow answer%0Aspec: basic/utilities/ping',
    ]);
  });

  it('says an unreachable server in one error', () => {
    expect(formatGithubAnnotations(report([], { unreachable: 'spawn x ENOENT' }))).toEqual(['::error title=toolrun@1%3A everything unreachable::spawn x ENOENT']);
  });

  it('escapes per the runner: %, CR, LF in data; also : and , in properties', () => {
    expect(escapeData('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab: c, d');
    expect(escapeProperty('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab%3A c%2C d');
  });

  it('keeps a hostile server on its own single line: no forged command, no terminal control', () => {
    const lines = formatGithubAnnotations(
      report([check({ id: `x${HOSTILE}`, verdict: 'fail', title: 'T', message: `${HOSTILE}\n::error title=forged::pwned\n::stop-commands::x`, evidence: [{ detail: HOSTILE }] })], { server: HOSTILE }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\n\r\u0000-\u001f\u007f-\u009f]/);
    expect(lines[0]!.startsWith('::error title=toolrun@1%3A xevil<tool>]]>&amp;"\'\\x00')).toBe(true);
    expect(lines[0]).toContain('%0A::error title=forged::pwned%0A::stop-commands::x');
  });

  it('stops at ten of each kind and says how many more', () => {
    const checks = [...Array(13)].map((_, index) => check({ id: `c${index}`, verdict: 'fail', message: 'bad' }));
    const lines = formatGithubAnnotations(report(checks));
    expect(lines).toHaveLength(11);
    expect(lines[10]).toBe('::error title=toolrun@1::3 more failed checks: see the JUnit report or --json');
  });

  it('masks secrets (a server URL with a token)', () => {
    const [line] = formatGithubAnnotations(report([], { server: 'https://h/mcp?token=abcSECRET', unreachable: 'fetch failed' }));
    expect(line).not.toContain('abcSECRET');
  });
});
