import type { CheckResult, ConformReport } from '../../src/conform/conform-types.js';

/** A check result with the fields a test does not care about filled in. */
export function check(partial: Partial<CheckResult> & Pick<CheckResult, 'id' | 'verdict'>): CheckResult {
  return { title: `${partial.id} holds`, section: 'basic/lifecycle', message: 'ok', evidence: [], durationMs: 3, ...partial };
}

/** A report whose summary is counted from its checks, as the engine does. */
export function report(checks: CheckResult[], partial: Partial<ConformReport> = {}): ConformReport {
  const summary = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const result of checks) summary[result.verdict] += 1;
  return {
    profile: { name: 'toolrun', version: 1 },
    server: 'everything',
    transport: 'stdio',
    protocolVersion: '2025-11-25',
    specBase: 'https://modelcontextprotocol.io/specification/2025-11-25/',
    calls: [],
    checks,
    summary,
    durationMs: 1412,
    ...partial,
  };
}

/** Everything a hostile server can put in a string: markup, CDATA's end, entities, NUL, ESC, CR/LF, C1, a lone surrogate. */
export const HOSTILE = 'evil<tool>]]>&amp;"\'\u0000\u001b[2J\u001b]0;title\u0007\r\nforged\u009b\ud800\uffff end';

/** A mixed run: a pass, a failure with frame evidence, a warning, a skip. */
export function mixedReport(): ConformReport {
  return report([
    check({ id: 'lifecycle.initialize', verdict: 'pass', title: 'The handshake succeeds', message: 'initialize answered with 2025-11-25' }),
    check({
      id: 'tools.input-schema',
      verdict: 'fail',
      title: 'Every tool has an inputSchema',
      section: 'server/tools#tool',
      message: 'tool "broken" has no inputSchema',
      evidence: [
        {
          detail: 'result.tools[1] has no inputSchema',
          path: 'result.tools[1].inputSchema',
          line: 7,
          direction: 'received',
          frame: {
            jsonrpc: '2.0',
            id: 2,
            result: {
              tools: [
                { name: 'ok', inputSchema: { type: 'object' } },
                { name: 'broken', description: 'x'.repeat(300) },
              ],
            },
          },
        },
      ],
    }),
    check({ id: 'ping', verdict: 'warn', title: 'ping answers', section: 'basic/utilities/ping', message: 'ping answered in 1800 ms', evidence: [{ detail: 'slow answer' }] }),
    check({ id: 'tools.call-structured', verdict: 'skip', title: 'structuredContent matches outputSchema', message: 'no tool was called (use --call or --call-all)' }),
  ]);
}
