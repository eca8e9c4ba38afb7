import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { NegotiatingTransport } from '../../src/mcp/transports/negotiating-transport.js';

/** An inner transport that swallows what is sent and closes when told to, as a server that exits does. */
function silentTransport(): Transport & { exit(): void } {
  const transport: Transport & { exit(): void } = {
    start: async () => {},
    send: async () => {},
    close: async () => {},
    exit: () => transport.onclose?.(),
  };
  return transport;
}

describe('NegotiatingTransport probe requests (issue #19 item 1)', () => {
  it('fail as soon as the server exits, not when the probe gives up waiting', async () => {
    const inner = silentTransport();
    const negotiating = new NegotiatingTransport(inner);
    const probe = negotiating.request('server/discover', {}, AbortSignal.timeout(5000));
    await new Promise((resolve) => setTimeout(resolve, 10));
    inner.exit();
    await expect(probe).rejects.toMatchObject({ message: 'Connection closed', code: -32000 });
  });

  it('fail at once when sent after the server exited', async () => {
    const inner = silentTransport();
    const negotiating = new NegotiatingTransport(inner);
    await negotiating.start();
    inner.exit();
    await expect(negotiating.request('server/discover', {}, AbortSignal.timeout(5000))).rejects.toMatchObject({ message: 'Connection closed' });
  });

  it('still pass the close on to the client', () => {
    const inner = silentTransport();
    const negotiating = new NegotiatingTransport(inner);
    let closed = 0;
    negotiating.onclose = () => closed++;
    inner.exit();
    expect(closed).toBe(1);
  });
});
