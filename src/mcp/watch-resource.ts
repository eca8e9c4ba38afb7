import type { ListenFilter, McpClient, McpRequestOptions } from './mcp-client.js';

/** One item of a resources/read result, as the server sent it. */
export interface ResourceContents {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface WatchResourceOptions {
  /** Ctrl-C: the watch unsubscribes and ends. */
  signal: AbortSignal;
  timeout?: number;
  /** 2026-07-28: also ask the stream for the list-changed notifications (shown with --verbose). */
  listChanges?: boolean;
  /** Resolves, with why, when the server can no longer answer (it exited, the connection dropped). */
  gone: Promise<string>;
  /** Each read of the resource: the first (update 0), then one per `notifications/resources/updated`. */
  onContents(contents: ResourceContents[], update: number): Promise<void>;
}

export type WatchEnd = { kind: 'interrupted' } | { kind: 'gone'; reason: string } | { kind: 'not-honored'; honored: ListenFilter };

/** How long Ctrl-C waits for resources/unsubscribe (or the listen stream's cancel) to go out: the user asked to stop. */
const UNSUBSCRIBE_WAIT_MS = 1000;
/** After a failed read, how long to wait for the server's exit that may explain it. */
const GONE_AFTER_FAILURE_MS = 300;

/** How the server was asked for the URI's updates: how to tell it to stop, and its own end of them. */
interface Following {
  stop(): Promise<unknown>;
  /** 2026-07-28: the server ended the listen stream (why). */
  ended: Promise<WatchEnd>;
  /** 2026-07-28: what the server agreed to, when that left this URI out (the stream is closed). */
  notHonored?: ListenFilter;
}

const NEVER = new Promise<never>(() => {});

/** 2025 family: resources/subscribe; stopped with resources/unsubscribe. */
async function subscribe(client: McpClient, uri: string, requestOptions: McpRequestOptions): Promise<Following> {
  await client.request('resources/subscribe', { uri }, requestOptions);
  return { stop: () => client.request('resources/unsubscribe', { uri }, { timeout: UNSUBSCRIBE_WAIT_MS }).catch(() => {}), ended: NEVER };
}

/** 2026-07-28: a `subscriptions/listen` stream for the URI; stopped by cancelling that request. */
async function listen(client: McpClient & Required<Pick<McpClient, 'listen'>>, uri: string, options: WatchResourceOptions, requestOptions: McpRequestOptions): Promise<Following> {
  const lists: ListenFilter = options.listChanges ? { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } : {};
  const stream = await client.listen({ resourceSubscriptions: [uri], ...lists }, requestOptions);
  const stop = () => Promise.race([stream.close().catch(() => {}), delay(UNSUBSCRIBE_WAIT_MS)]);
  if (!stream.honored.resourceSubscriptions?.includes(uri)) {
    await stop();
    return { stop: async () => {}, ended: NEVER, notHonored: stream.honored };
  }
  const ended = stream.ended.then(async (how): Promise<WatchEnd> => {
    if (how === 'local') return NEVER;
    if (how === 'graceful') return { kind: 'gone', reason: 'ended the subscription' };
    // A dropped stream is mostly the process exiting, whose exit code says more: it comes a moment later.
    return { kind: 'gone', reason: (await Promise.race([options.gone, delay(GONE_AFTER_FAILURE_MS)])) ?? 'closed the connection' };
  });
  return { stop, ended };
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

/**
 * Follows a resource (2025 family: resources/subscribe; 2026-07-28: a subscriptions/listen stream
 * for its URI; then `notifications/resources/updated`):
 * reads it once, then again after each update for its URI (updates that come during a read are
 * folded into one more read), until Ctrl-C (unsubscribed) or the server goes away. A failed read
 * or subscribe is thrown as the server's error.
 */
export async function watchResource(client: McpClient, uri: string, options: WatchResourceOptions): Promise<WatchEnd> {
  const requestOptions: McpRequestOptions = { signal: options.signal, timeout: options.timeout };
  let update = 0;
  let wanted = 0;
  let reading: Promise<void> | undefined;
  let failed: (error: unknown) => void = () => {};
  const failure = new Promise<never>((_resolve, reject) => (failed = reject));
  failure.catch(() => {});
  const read = async (number: number) => {
    const result = await client.request('resources/read', { uri }, requestOptions);
    await options.onContents(Array.isArray(result.contents) ? (result.contents as ResourceContents[]) : [], number);
  };
  // Reads one at a time: an update that arrives during a read asks for one more read after it.
  const readAgain = (): void => {
    if (reading || update >= wanted) return;
    update = wanted;
    reading = read(update)
      .catch((error: unknown) => {
        if (!options.signal.aborted) failed(error);
      })
      .finally(() => {
        reading = undefined;
        readAgain();
      });
  };
  client.onNotification('notifications/resources/updated', (params) => {
    if (params.uri !== uri || options.signal.aborted) return;
    wanted++;
    readAgain();
  });
  const following = client.listen && client.choice.era === 'modern' ? await listen(client as Parameters<typeof listen>[0], uri, options, requestOptions) : await subscribe(client, uri, requestOptions);
  let unsubscribed: Promise<unknown> | undefined;
  const unsubscribe = () => {
    // Sent at once, inside the abort: before toolrun's shutdown closes the server's stdin.
    unsubscribed = following.stop();
  };
  if (options.signal.aborted) unsubscribe();
  else options.signal.addEventListener('abort', unsubscribe, { once: true });
  const interrupted = new Promise<WatchEnd>((resolve) => {
    if (options.signal.aborted) resolve({ kind: 'interrupted' });
    options.signal.addEventListener('abort', () => resolve({ kind: 'interrupted' }), { once: true });
  });
  try {
    if (following.notHonored) return { kind: 'not-honored', honored: following.notHonored };
    await Promise.race([read(0), interrupted, failure, following.ended]);
    const end = await Promise.race([interrupted, failure, following.ended, options.gone.then((reason): WatchEnd => ({ kind: 'gone', reason }))]);
    if (end.kind === 'interrupted') await unsubscribed;
    return end;
  } catch (error) {
    if (options.signal.aborted) return { kind: 'interrupted' };
    // A read cut short by the server's exit is the exit, told as such (the exit comes a moment later).
    const reason = await Promise.race([options.gone, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), GONE_AFTER_FAILURE_MS).unref())]);
    if (reason !== undefined) return { kind: 'gone', reason };
    throw error;
  } finally {
    options.signal.removeEventListener('abort', unsubscribe);
  }
}
