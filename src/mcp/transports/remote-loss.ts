// Its own small file: connection-lost.ts asks it at startup (`toolrun time`, the session holder).
import type { RemoteLoss } from '../../http/dropped-stream.js';

export type { RemoteLoss };

const losses = new WeakMap<object, RemoteLoss>();

/** Notes that the server behind this HTTP transport is gone (the first loss stays). */
export function noteRemoteLoss(transport: object, loss: RemoteLoss): void {
  if (!losses.has(transport)) losses.set(transport, loss);
}

/** How the server behind this HTTP transport was lost, if it was: no later request can succeed on it. */
export function remoteLoss(transport: object | undefined): RemoteLoss | undefined {
  return transport ? losses.get(transport) : undefined;
}
