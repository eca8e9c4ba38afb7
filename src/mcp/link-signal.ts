/**
 * A child of `outer` that can be let go: the SDK never removes the abort listener it adds to a
 * request's signal, so a long-lived signal (a session's Ctrl-C, an attempt's deadline over 1,000
 * pages) given to every request would collect listeners and make Node warn about a leak.
 */
export function linkSignal(outer: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, dispose: () => outer.removeEventListener('abort', onAbort) };
}
