import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpRecorder } from '../../src/trace/otlp-export.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

// A command that runs for long (serve, resources watch, shell) exports its spans as it goes, not only
// when it ends: the recorder exports what has ended every interval (5 s by default; short here).
describe('the OTLP span recorder', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('exports ended request spans before the command ends, then the command span at its end', async () => {
    const recorder = await startOtlpRecorder({ url: `${receiver.url}/v1/traces`, headers: {}, caller: undefined, tracestate: undefined, commandName: 'toolrun serve', exportIntervalMs: 20 });
    const span = recorder.startRequest({ method: 'tools/call', id: 7, params: { name: 'echo' }, network: { transport: 'pipe' } });
    span.end({ result: { content: [] } });
    await receiver.waitFor((spans) => spans.some((received) => received.name === 'tools/call echo'));
    expect(receiver.spans.map((received) => received.name)).toEqual(['tools/call echo']);
    expect(receiver.spans[0]).toMatchObject({ traceId: recorder.traceId, parentSpanId: recorder.rootSpanId, spanId: span.spanId });
    expect(await recorder.finish(0)).toBeUndefined();
    expect(receiver.spans.map((received) => received.name)).toEqual(['tools/call echo', 'toolrun serve']);
  });
});
