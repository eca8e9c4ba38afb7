import type { Timeline, TimelineEvent } from '../../record/timeline.js';
import { html, type SafeHtml } from './html-template.js';
import { renderPage } from './page-shell.js';
import { sequenceDiagramSvg, type SequenceRow } from './sequence-diagram-svg.js';

/** Rows drawn at most: a 100,000-message session stays a page a browser opens; the summary counts them all. */
export const MAX_DRAWN_EVENTS = 2000;

/**
 * `toolrun mcp show --html` (SPEC §17): the recorded session as a sequence diagram (client and server
 * lanes, each request an arrow with its method, the response back with its latency, notifications
 * dashed, errors red, stderr and polluting stdout lines as notes with their line numbers), the summary
 * above it, and the stderr and polluting lines in full in a table below.
 */
export function renderTimelineHtml(timeline: Timeline): string {
  const { header, events, summary } = timeline;
  const drawn = events.slice(0, MAX_DRAWN_EVENTS);
  const offProtocol = events.filter((event) => event.kind === 'stderr' || event.kind === 'pollution').slice(0, MAX_DRAWN_EVENTS);
  const duration = events.at(-1)?.t ?? 0;
  const body = html`<h1>${`recording of ${header.server}`}</h1>
    <p class="muted">${`started ${header.started}`}</p>
    <p><code>${header.command}</code></p>
    <table class="summary">
      <caption>
        ${`Summary of all ${events.length} events`}
      </caption>
      <tr>
        <th>requests</th>
        <td class="num">${summary.requests}</td>
      </tr>
      <tr>
        <th>answered with an error</th>
        <td class="${`num ${summary.errors ? 'error' : ''}`}">${summary.errors}</td>
      </tr>
      <tr>
        <th>unanswered</th>
        <td class="${`num ${summary.unanswered ? 'warn' : ''}`}">${summary.unanswered}</td>
      </tr>
      <tr>
        <th>notifications</th>
        <td class="num">${summary.notifications}</td>
      </tr>
      <tr>
        <th>stderr lines</th>
        <td class="num">${summary.stderr_lines}</td>
      </tr>
      <tr>
        <th>polluting stdout lines</th>
        <td class="${`num ${summary.polluting_lines ? 'error' : ''}`}">${summary.polluting_lines}</td>
      </tr>
      <tr>
        <th>duration</th>
        <td class="num">${`${duration.toFixed(1)} ms`}</td>
      </tr>
      ${
        summary.slowest
          ? html`<tr>
              <th>slowest</th>
              <td class="num">${`${summary.slowest.method} ${summary.slowest.latency_ms.toFixed(1)} ms`}</td>
            </tr>`
          : ''
      }
    </table>
    <h2>Sequence</h2>
    ${events.length > drawn.length ? html`<p class="warn">${`The first ${drawn.length} of ${events.length} events are drawn; ${events.length - drawn.length} more are counted in the summary (mcp show --json has them all).`}</p>` : ''}
    ${sequenceDiagramSvg(['client', 'server'], drawn.map(toRow), `The session with ${header.server}, message by message`)}
    ${offProtocolTable(offProtocol, summary.stderr_lines + summary.polluting_lines)}`;
  return renderPage({ title: `recording of ${header.server}`, body });
}

function toRow(event: TimelineEvent): SequenceRow {
  const time = event.t.toFixed(1);
  switch (event.kind) {
    case 'request':
      return { kind: 'arrow', time, toRight: event.from === 'client', label: `${event.method} #${event.id}`, style: 'request' };
    case 'response': {
      const latency = event.latency_ms === undefined ? '' : ` (${event.latency_ms.toFixed(1)} ms)`;
      const what = `#${event.id}${event.method ? ` ${event.method}` : ''}`;
      const outcome = event.error ? `error ${event.error.code ?? ''} ${event.error.message ?? ''}`.trimEnd() : 'ok';
      return { kind: 'arrow', time, toRight: event.from === 'client', label: `${what} ${outcome}${latency}`, style: event.error ? 'error' : 'response' };
    }
    case 'notification':
      return { kind: 'arrow', time, toRight: event.from === 'client', label: event.method, style: 'notification' };
    case 'stderr':
      return { kind: 'note', time, label: `stderr line ${event.line}: ${event.text}`, style: 'stderr' };
    case 'pollution':
      return { kind: 'note', time, label: `stdout line ${event.line} not JSON-RPC (${event.findings.join(', ')}): ${event.text}`, style: 'pollution' };
  }
}

function offProtocolTable(events: TimelineEvent[], total: number): SafeHtml | '' {
  if (events.length === 0) return '';
  return html`<h2>Stderr and polluting stdout lines</h2>
    ${total > events.length ? html`<p class="warn">${`The first ${events.length} of ${total} are listed.`}</p>` : ''}
    <table class="off-protocol">
      <tr>
        <th class="num">ms</th>
        <th>stream</th>
        <th class="num">line</th>
        <th>text</th>
      </tr>
      ${events.map((event) =>
        event.kind === 'stderr' || event.kind === 'pollution'
          ? html`<tr class="${event.kind}">
              <td class="num">${event.t.toFixed(1)}</td>
              <td>${event.kind === 'stderr' ? 'stderr' : `stdout (${event.findings.join(', ')})`}</td>
              <td class="num">${event.line}</td>
              <td class="mono">${event.text}</td>
            </tr>`
          : '',
      )}
    </table>`;
}
