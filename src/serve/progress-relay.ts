type Update = { progress: number; total?: number; message?: string };
type Notify = (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<unknown>;

/**
 * An upstream call's progress passed to the client under the client's own token (undefined: the
 * client asked for none). Each update is built field by field, since the upstream's carries the
 * upstream's token, which this client never sent; `flushed` resolves once every update is written,
 * so the result that follows is read after them.
 */
export function progressRelay(token: string | number | undefined, notify: Notify): { onProgress?: (update: Update) => void; flushed(): Promise<unknown> } {
  const sent: Array<Promise<unknown>> = [];
  if (token === undefined) return { flushed: async () => undefined };
  return {
    onProgress: (update) =>
      void sent.push(
        notify({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: update.progress,
            ...(update.total === undefined ? {} : { total: update.total }),
            ...(update.message === undefined ? {} : { message: update.message }),
          },
        }).catch(() => {}),
      ),
    flushed: () => Promise.all(sent),
  };
}
