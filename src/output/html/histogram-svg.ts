import { niceTicks, px } from './chart-scale.js';
import { html, type SafeHtml } from './html-template.js';

/** One bar: the values in [from, to) (the last bar includes its upper bound). */
export interface HistogramBar {
  from: number;
  to: number;
  count: number;
}

const WIDTH = 1100;
const HEIGHT = 260;
const MARGIN = { left: 56, right: 16, top: 20, bottom: 44 };

/**
 * A histogram as inline SVG: one bar per bucket with its count written above it, the bucket bounds
 * written under the axis (every few bars when they are many), and each bar's exact range and count
 * in its <title>. `format` prints a bound (e.g. 1.25); `unit` names it.
 */
export function histogramSvg(bars: HistogramBar[], options: { unit: string; format: (value: number) => string; caption: string }): SafeHtml {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = Math.max(1, ...bars.map((bar) => bar.count));
  const ticks = niceTicks(top);
  const yMax = ticks.at(-1)!;
  const barWidth = plotWidth / Math.max(1, bars.length);
  const labelEvery = Math.ceil(bars.length / 12);
  const y = (count: number) => MARGIN.top + plotHeight - (count / yMax) * plotHeight;
  const baseline = MARGIN.top + plotHeight;
  return html`<svg class="chart histogram" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img">
    <title>${options.caption}</title>
    ${ticks.map((tick) => html`<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${px(y(tick))}" y2="${px(y(tick))}" /><text class="muted" x="${MARGIN.left - 6}" y="${px(y(tick) + 4)}" text-anchor="end">${tick}</text>`)}
    ${bars.map((bar, index) => {
      const x = MARGIN.left + index * barWidth;
      const range = `${options.format(bar.from)}–${options.format(bar.to)} ${options.unit}: ${bar.count} call${bar.count === 1 ? '' : 's'}`;
      return html`<g
        ><rect class="bar" x="${px(x + 1)}" y="${px(y(bar.count))}" width="${px(Math.max(1, barWidth - 2))}" height="${px(baseline - y(bar.count))}"><title>${range}</title></rect>${
          bar.count > 0 ? html`<text x="${px(x + barWidth / 2)}" y="${px(y(bar.count) - 4)}" text-anchor="middle">${bar.count}</text>` : ''
        }${index % labelEvery === 0 ? html`<text class="muted" x="${px(x)}" y="${baseline + 16}" text-anchor="middle">${options.format(bar.from)}</text>` : ''}</g
      >`;
    })}
    ${bars.length > 0 ? html`<text class="muted" x="${px(MARGIN.left + bars.length * barWidth)}" y="${baseline + 16}" text-anchor="middle">${options.format(bars.at(-1)!.to)}</text>` : ''}
    <line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${baseline}" y2="${baseline}" />
    <text class="muted" x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 6}" text-anchor="middle">${options.unit}</text>
    <text class="muted" x="12" y="${MARGIN.top + plotHeight / 2}" transform="${`rotate(-90 12 ${MARGIN.top + plotHeight / 2})`}" text-anchor="middle">calls</text>
  </svg>`;
}
