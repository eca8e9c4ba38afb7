import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyLine } from '../../src/scan/classify-line.js';
import { scanStream } from '../../src/check-stdout/scan-stream.js';
import { StdoutScanner } from '../../src/scan/stdout-scanner.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const capture = (name: string) => join(FIXTURES, 'captures', `${name}.ndjson`);
const scanFile = (name: string) => scanStream(createReadStream(capture(name)));
// Line 1 of every capture is a 140-byte initialize response, so line 2 starts at byte 141.
const LINE_2 = 141;
const LIST = '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}';

describe('stdout scanner, one capture per kind', () => {
  it('finds nothing in a clean capture', async () => {
    const { findings, summary } = await scanFile('clean');
    expect(findings).toEqual([]);
    expect(summary).toMatchObject({ lines: 3, messages: 3, pollutingLines: 0, warningLines: 0 });
  });

  it.each([
    ['not-json', 2, LINE_2, 'Loading config...'],
    ['not-jsonrpc', 2, LINE_2, '{"status":"ready"}'],
    ['glued', 2, LINE_2, `Loading...${LIST}`],
    ['empty', 2, LINE_2, ''],
  ])('%s: line %i at byte %i', async (kind, line, offset, text) => {
    const { findings, summary } = await scanFile(kind);
    expect(findings).toEqual([{ line, offset, kind, severity: 'error', text }]);
    expect(summary.pollutingLines).toBe(1);
    expect(summary.lines).toBe(3);
  });

  it('multiple-messages: two messages on line 2, both lost', async () => {
    const { findings, summary } = await scanFile('multiple-messages');
    expect(findings).toEqual([{ line: 2, offset: LINE_2, kind: 'multiple-messages', severity: 'error', text: expect.stringMatching(/^\{"jsonrpc":"2\.0","id":1.*\}\{"jsonrpc"/) }]);
    expect(summary).toMatchObject({ lines: 2, messages: 1 });
  });

  it('bom: line 1 at byte 0, the message is lost', async () => {
    const { findings, summary } = await scanFile('bom');
    expect(findings).toEqual([{ line: 1, offset: 0, kind: 'bom', severity: 'error', text: expect.stringMatching(/^\uFEFF\{"jsonrpc"/) }]);
    expect(summary).toMatchObject({ lines: 2, messages: 1, pollutingLines: 1 });
  });

  it('crlf: a warning on each line, messages still read', async () => {
    const { findings, summary } = await scanFile('crlf');
    expect(findings.map(({ line, offset, kind, severity }) => ({ line, offset, kind, severity }))).toEqual([
      { line: 1, offset: 0, kind: 'crlf', severity: 'warning' },
      { line: 2, offset: 142, kind: 'crlf', severity: 'warning' },
    ]);
    expect(summary).toMatchObject({ lines: 2, messages: 2, pollutingLines: 0, warningLines: 2 });
  });

  it('invalid-utf8: line 2 at byte 141', async () => {
    const { findings } = await scanFile('invalid-utf8');
    expect(findings.map(({ line, offset, kind }) => ({ line, offset, kind }))).toEqual([{ line: 2, offset: LINE_2, kind: 'invalid-utf8' }]);
  });

  it('unterminated: the last line, at byte 141', async () => {
    const { findings, summary } = await scanFile('unterminated');
    expect(findings).toEqual([{ line: 2, offset: LINE_2, kind: 'unterminated', severity: 'error', text: LIST }]);
    expect(summary).toMatchObject({ lines: 2, messages: 1 });
  });

  it('oversize: a line over the limit, kept short in memory, and the next line still read', () => {
    const scanner = new StdoutScanner({ maxLineBytes: 1000 });
    scanner.push(Buffer.from('x'.repeat(700)));
    scanner.push(Buffer.from(`${'x'.repeat(700)}\n${LIST}\n`));
    const { findings, summary } = scanner.end();
    expect(findings).toEqual([{ line: 1, offset: 0, kind: 'oversize', severity: 'error', text: `${'x'.repeat(199)}…` }]);
    expect(summary).toMatchObject({ lines: 2, messages: 1, bytes: 1448 });
  });

  it("oversize: a capture with a line over the TS SDK's 10 MB buffer", async () => {
    // Generated, not committed: an 11 MB fixture file would weigh on every clone.
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'toolrun-oversize-')), 'oversize.ndjson');
    const big = `{"jsonrpc":"2.0","id":1,"result":{"blob":"${'x'.repeat(11 * 1024 * 1024)}"}}`;
    writeFileSync(path, `${LIST}\n${big}\n${LIST}\n`);
    const { findings, summary } = await scanStream(createReadStream(path));
    expect(findings).toEqual([{ line: 2, offset: LIST.length + 1, kind: 'oversize', severity: 'error', text: expect.stringMatching(/^\{"jsonrpc":"2\.0","id":1,"result":\{"blob":"x+…$/) }]);
    expect(summary).toMatchObject({ lines: 3, messages: 2, pollutingLines: 1, bytes: LIST.length * 2 + big.length + 3 });
  });

  it('goes on after every bad line, whatever the chunking', async () => {
    const bytes = Buffer.concat(['not-json', 'glued', 'empty', 'bom', 'crlf'].map((name) => readFileSync(capture(name))));
    const whole = new StdoutScanner();
    whole.push(bytes);
    const byteByByte = new StdoutScanner();
    for (let i = 0; i < bytes.length; i++) byteByByte.push(bytes.subarray(i, i + 1));
    expect(byteByByte.end()).toEqual(whole.end());
    expect(whole.report().summary).toMatchObject({ lines: 13, pollutingLines: 4, warningLines: 2 });
  });

  it('keeps at most maxFindings, and says so', () => {
    const scanner = new StdoutScanner({ maxFindings: 2 });
    scanner.push(Buffer.from('a\nb\nc\n'));
    const { findings, summary } = scanner.end();
    expect(findings).toHaveLength(2);
    expect(summary).toMatchObject({ pollutingLines: 3, truncated: true, byKind: { 'not-json': 3 } });
  });
});

describe('classifyLine', () => {
  const classify = (text: string) => classifyLine(Buffer.from(text), true, false);

  it('accepts requests, notifications, responses and errors', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 'a', method: 'ping', params: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
    ])
      expect(classify(JSON.stringify(message))).toEqual({ isMessage: true, kinds: [], value: message });
  });

  it('rejects JSON that is not JSON-RPC 2.0', () => {
    for (const value of [[], 42, 'x', null, { jsonrpc: '1.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 1, result: 5 }, { jsonrpc: '2.0', id: 1.5, method: 'x' }]) {
      expect(classify(JSON.stringify(value)).kinds).toEqual(['not-jsonrpc']);
    }
  });

  it('tells glued text from plain text and from several values', () => {
    expect(classify(`{"jsonrpc":"2.0","method":"x"} trailing log`).kinds).toEqual(['glued']);
    expect(classify('Progress: 50% {not json}').kinds).toEqual(['not-json']);
    expect(classify('[1][2]').kinds).toEqual(['multiple-messages']);
    expect(classify('{"a":"}{"}').kinds).toEqual(['not-jsonrpc']);
  });
});
