import { describe, expect, it } from 'vitest';
import { describeAnswer } from '../../src/conform/checks/findings.js';
import { cutValue } from '../../src/conform/cut-evidence.js';
import { formatConformReport } from '../../src/output/format-conform-report.js';
import { createStyle } from '../../src/output/style.js';
import { maskSecrets, maskThenCut, rememberSecret } from '../../src/secrets/mask-secrets.js';
import { check, report } from '../output/conform-report-fixtures.js';

// Issue #31 item 7: text cut before it is masked keeps the start of a secret that straddles the cut,
// and the start alone matches neither the secret's value nor its shape. Masked first, then cut.
const TOKEN = 'tok_live_4f9a8b7c6d5e4f3a2b1c0d9e';
rememberSecret(TOKEN);
/** Whatever part of the token a text still shows: the longest prefix of 6+ characters. */
const leaked = (text: string) => [...Array(TOKEN.length - 5)].map((_, index) => TOKEN.slice(0, TOKEN.length - index)).find((prefix) => text.includes(prefix));

describe('maskThenCut', () => {
  it('masks first: a secret across the cut leaves none of itself', () => {
    const text = `${'x'.repeat(50)}${TOKEN} tail`;
    expect(maskThenCut(text, 73, '…')).toBe(`${'x'.repeat(50)}*** tail`);
    expect(maskThenCut(text, 56, '…')).toBe(`${'x'.repeat(50)}*** t…`);
    expect(maskThenCut(text, 52)).toBe(`${'x'.repeat(50)}**`);
  });

  it('never cuts a surrogate pair in half', () => {
    expect(maskThenCut('ab😀cd', 4, '…')).toBe('ab…');
  });
});

describe("conform's one-line texts are cut after masking", () => {
  const plain = createStyle(false);

  it('the table row and the frame under it', async () => {
    // A message long enough that the row is cut inside the token (the row has room for about 70 characters).
    const message = `the server echoed its key: ${'y'.repeat(30)} ${TOKEN} and more text after it`;
    const frame = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: `${'z'.repeat(130)}${TOKEN}` } };
    const text = formatConformReport(report([check({ id: 'tools.call', verdict: 'fail', message, evidence: [{ detail: 'answer', frame, direction: 'received' }] })]), await plain);
    // What the terminal prints: masked once more on its way out (terminal.ts).
    expect(leaked(maskSecrets(text))).toBeUndefined();
  });

  it('an error message in a finding, and a long string in evidence', () => {
    const answer = { kind: 'error', error: { code: -32000, message: `${'w'.repeat(100)}${TOKEN}` } } as Parameters<typeof describeAnswer>[0];
    expect(leaked(maskSecrets(describeAnswer(answer)))).toBeUndefined();
    expect(leaked(maskSecrets(JSON.stringify(cutValue({ text: `${'v'.repeat(280)}${TOKEN}` }))))).toBeUndefined();
  });
});
