/** `90s`, `10m`, `1h`, `500ms`, or a number of seconds → ms; undefined when it is none of these. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  const ms = value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
  return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** 600000 → `10m`, 90000 → `1m30s`, 1500 → `1.5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds && !hours ? `${seconds}s` : ''}` || '0s';
}
