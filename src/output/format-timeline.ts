import type { Timeline, TimelineEvent } from '../record/timeline.js';
import type { Style } from './style.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/**
 * `mcp show`: the recording as a timeline, one line per event:
 *      11.1 ms  → server/discover #toolrun-discover-1
 *     282.7 ms  ← #toolrun-discover-1 server/discover error -32601 Method not found (271.7 ms)
 * → is the client's, ← the server's; requests, responses with their latency, notifications,
 * stderr lines and polluting stdout lines.
 */
export function formatTimeline(timeline: Timeline, style: Style): string {
  const { header, events, summary } = timeline;
  const lines = [style.bold(`recording of ${header.server}`) + style.dim(` · ${header.command} · started ${header.started}`)];
  for (const event of events) lines.push(`${`${event.t.toFixed(1)} ms`.padStart(11)}  ${describe(event, style)}`);
  const parts = [
    `${summary.requests} request${summary.requests === 1 ? '' : 's'}${summary.errors ? ` (${summary.errors} answered with an error)` : ''}`,
    ...(summary.unanswered ? [style.yellow(`${summary.unanswered} unanswered`)] : []),
    `${summary.notifications} notification${summary.notifications === 1 ? '' : 's'}`,
    `${summary.stderr_lines} stderr line${summary.stderr_lines === 1 ? '' : 's'}`,
    summary.polluting_lines ? style.red(`${summary.polluting_lines} polluting stdout line${summary.polluting_lines === 1 ? '' : 's'}`) : '0 polluting stdout lines',
  ];
  if (summary.slowest) parts.push(`slowest: ${summary.slowest.method} ${summary.slowest.latency_ms.toFixed(1)} ms`);
  lines.push(parts.join(' · '));
  return lines.join('\n');
}

function describe(event: TimelineEvent, style: Style): string {
  // Terminal.result shows control characters as text (what the server wrote is never run).
  // Masked before it is cut: a secret across the cut would leave its start (maskThenCut).
  const quote = (text: string) => maskThenCut(text, 201, '…');
  switch (event.kind) {
    case 'request':
      return `${arrow(event.from)} ${event.method} #${event.id}${event.traceparent ? style.dim(` traceparent ${quote(event.traceparent)}`) : ''}`;
    case 'response': {
      const latency = event.latency_ms === undefined ? '' : style.dim(` (${event.latency_ms.toFixed(1)} ms)`);
      const what = `${arrow(event.from)} #${event.id}${event.method ? ` ${event.method}` : ''}`;
      if (event.era_probe) return style.dim(`${what} refused ${event.error?.code ?? ''}: toolrun's era probe, the server speaks the 2025 protocol`) + latency;
      return event.error ? style.red(`${what} error ${event.error.code ?? ''} ${quote(event.error.message ?? '')}`.trimEnd()) + latency : `${what} ok${latency}`;
    }
    case 'notification':
      return `${arrow(event.from)} ${event.method}`;
    case 'stderr':
      return style.dim(`stderr: ${quote(event.text)}`);
    case 'pollution':
      return style.red(`✖ stdout not JSON-RPC (${event.findings.join(', ')}): ${JSON.stringify(quote(event.text))}`);
  }
}

function arrow(from: 'client' | 'server'): string {
  return from === 'client' ? '→' : '←';
}
