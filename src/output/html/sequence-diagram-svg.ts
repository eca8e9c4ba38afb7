import { cutLabel, px } from './chart-scale.js';
import { html, type SafeHtml } from './html-template.js';

/** A message between the two lanes, or a note beside the right lane (what a side said off the protocol). */
export type SequenceRow =
  | { kind: 'arrow'; time: string; toRight: boolean; label: string; style: 'request' | 'response' | 'notification' | 'error' }
  | { kind: 'note'; time: string; label: string; style: 'stderr' | 'pollution' };

const WIDTH = 1100;
const ROW = 24;
const HEAD = 40;
const TIME_X = 80;
const LEFT_X = 200;
const RIGHT_X = 600;
const NOTE_X = 620;
/** Characters of a label that fit its place; the whole text is in the row's <title>. */
const ARROW_CHARS = 62;
const NOTE_CHARS = 78;

/**
 * Two lanes (e.g. client and server) as inline SVG, one row per message in order: its time on the
 * left, an arrow from one lane to the other with its label above (errors red, notifications dashed),
 * or a note box right of the right lane (stderr, polluting stdout) in its own style.
 */
export function sequenceDiagramSvg(lanes: [string, string], rows: SequenceRow[], caption: string): SafeHtml {
  const height = HEAD + rows.length * ROW + 16;
  return html`<svg class="chart sequence" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img">
    <title>${caption}</title>
    <defs>
      <marker id="head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path class="head" d="M0,0 L10,5 L0,10 z" /></marker>
      <marker id="head-error" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path class="head error" d="M0,0 L10,5 L0,10 z" /></marker>
    </defs>
    <text x="${LEFT_X}" y="18" text-anchor="middle" font-weight="bold">${lanes[0]}</text>
    <text x="${RIGHT_X}" y="18" text-anchor="middle" font-weight="bold">${lanes[1]}</text>
    <text class="muted" x="${TIME_X}" y="18" text-anchor="end">ms</text>
    <line class="lane" x1="${LEFT_X}" x2="${LEFT_X}" y1="26" y2="${height - 8}" />
    <line class="lane" x1="${RIGHT_X}" x2="${RIGHT_X}" y1="26" y2="${height - 8}" />
    ${rows.map((row, index) => drawRow(row, HEAD + index * ROW + ROW / 2))}
  </svg>`;
}

function drawRow(row: SequenceRow, y: number): SafeHtml {
  const time = html`<text class="muted mono" x="${TIME_X}" y="${px(y + 4)}" text-anchor="end">${row.time}</text>`;
  if (row.kind === 'note') {
    return html`<g class="${`row ${row.style}`}"
      ><title>${row.label}</title>${time}<rect class="${`note-${row.style}`}" x="${NOTE_X}" y="${px(y - 9)}" width="${WIDTH - NOTE_X - 8}" height="18" rx="3" /><text
        class="${row.style === 'pollution' ? 'error' : ''}"
        x="${NOTE_X + 6}"
        y="${px(y + 4)}"
        >${cutLabel(row.label, NOTE_CHARS)}</text
      ></g
    >`;
  }
  const [from, to] = row.toRight ? [LEFT_X, RIGHT_X] : [RIGHT_X, LEFT_X];
  const style = row.style === 'error' ? 'error' : row.style === 'notification' ? 'notification' : '';
  return html`<g class="${`row ${row.style}`}"
    ><title>${row.label}</title>${time}<line
      class="${`arrow ${style}`}"
      x1="${from}"
      x2="${to}"
      y1="${px(y + 6)}"
      y2="${px(y + 6)}"
      marker-end="${style === 'error' ? 'url(#head-error)' : 'url(#head)'}"
    /><text class="${style}" x="${(LEFT_X + RIGHT_X) / 2}" y="${px(y + 1)}" text-anchor="middle">${cutLabel(row.label, ARROW_CHARS)}</text></g
  >`;
}
