import { gzipSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { OtlpReceiver } from '../../src/trace/otlp-receiver.js';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

// mcp conform --trace receives what the server under test exports, and that server may be hostile:
// 64 KB of gzip inflating to 256 MB was inflated whole before anything looked at it.
it('refuses an export that inflates past 16 MB (a gzip bomb): 400, said among the refused, nothing kept', async () => {
  const receiver = await OtlpReceiver.start();
  receivers.push(receiver);
  const bomb = gzipSync(Buffer.alloc(256 << 20));
  expect(bomb.length).toBeLessThan(1 << 20);
  const response = await fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb });
  expect(response.status).toBe(400);
  expect(receiver.refused).toEqual(['a gzipped export inflates past 16777216 bytes: refused']);
  expect(receiver.spans).toEqual([]);
});
