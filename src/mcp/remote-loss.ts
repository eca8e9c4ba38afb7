// Its own small file: connection-lost.ts asks it at startup (`toolrun time`, the session holder).

/**
 * How the server behind an HTTP transport was lost: its connection dropped while it owed answers
 * (`dropped`: the process died mid-call), or a request of the open session found nothing listening
 * (`refused`). The reason is one line: "the server closed the connection before answering (other side closed)".
 */
export interface RemoteLoss {
  kind: 'dropped' | 'refused';
  reason: string;
}

const losses = new WeakMap<object, RemoteLoss>();

/** Notes that the server behind this HTTP transport is gone (the first loss stays). */
export function noteRemoteLoss(transport: object, loss: RemoteLoss): void {
  if (!losses.has(transport)) losses.set(transport, loss);
}

/** How the server behind this HTTP transport was lost, if it was: no later request can succeed on it. */
export function remoteLoss(transport: object | undefined): RemoteLoss | undefined {
  return transport ? losses.get(transport) : undefined;
}
