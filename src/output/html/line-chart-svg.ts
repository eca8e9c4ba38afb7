import { niceTicks, px } from './chart-scale.js';
import { html, type SafeHtml } from './html-template.js';

/** A point of the series; `low`/`high` draw a band when one point stands for several values. */
export interface LinePoint {
  x: number;
  y: number;
  low?: number;
  high?: number;
}

const WIDTH = 1100;
const HEIGHT = 260;
const MARGIN = { left: 56, right: 16, top: 16, bottom: 44 };

/**
 * Values in order as at most `maxPoints` points: each point the median of its run of values, with the
 * run's min and max as a band, so 100,000 calls draw as fast as 1,000 and a spike still shows.
 * x is the 1-based index of the run's first value.
 */
export function downsample(values: number[], maxPoints = 1000): { points: LinePoint[]; perPoint: number } {
  const perPoint = Math.max(1, Math.ceil(values.length / maxPoints));
  if (perPoint === 1) return { points: values.map((value, index) => ({ x: index + 1, y: value })), perPoint };
  const points: LinePoint[] = [];
  for (let start = 0; start < values.length; start += perPoint) {
    const run = values.slice(start, start + perPoint).sort((a, b) => a - b);
    points.push({ x: start + 1, y: run[Math.floor((run.length - 1) / 2)]!, low: run[0], high: run.at(-1) });
  }
  return { points, perPoint };
}

/** A line chart as inline SVG, y from 0, with round ticks written on both axes. */
export function lineChartSvg(points: LinePoint[], options: { xLabel: string; yLabel: string; caption: string; xMax: number }): SafeHtml {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const yTicks = niceTicks(Math.max(...points.map((point) => point.high ?? point.y), 0));
  const yMax = yTicks.at(-1)! || 1;
  const xTicks = niceTicks(options.xMax, 8).filter((tick) => tick <= options.xMax);
  const x = (value: number) => MARGIN.left + (options.xMax <= 1 ? 0 : ((value - 1) / (options.xMax - 1)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - (value / yMax) * plotHeight;
  const baseline = MARGIN.top + plotHeight;
  const line = points.map((point) => `${px(x(point.x))},${px(y(point.y))}`).join(' ');
  const banded = points.some((point) => point.low !== undefined);
  const band = banded
    ? [...points.map((point) => `${px(x(point.x))},${px(y(point.high ?? point.y))}`), ...[...points].reverse().map((point) => `${px(x(point.x))},${px(y(point.low ?? point.y))}`)].join(' ')
    : '';
  return html`<svg class="chart line-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img">
    <title>${options.caption}</title>
    ${yTicks.map((tick) => html`<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${px(y(tick))}" y2="${px(y(tick))}" /><text class="muted" x="${MARGIN.left - 6}" y="${px(y(tick) + 4)}" text-anchor="end">${tick}</text>`)}
    ${xTicks.map((tick) => html`<text class="muted" x="${px(x(Math.max(1, tick)))}" y="${baseline + 16}" text-anchor="middle">${Math.max(1, tick)}</text>`)}
    ${banded ? html`<polygon class="band" points="${band}" />` : ''}
    <polyline class="series" points="${line}" />
    ${points.length <= 200 ? points.map((point) => html`<circle class="dot" cx="${px(x(point.x))}" cy="${px(y(point.y))}" r="2"><title>${`#${point.x}: ${point.y}`}</title></circle>`) : ''}
    <text class="muted" x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 6}" text-anchor="middle">${options.xLabel}</text>
    <text class="muted" x="12" y="${MARGIN.top + plotHeight / 2}" transform="${`rotate(-90 12 ${MARGIN.top + plotHeight / 2})`}" text-anchor="middle">${options.yLabel}</text>
  </svg>`;
}
