import { latencyHistogram } from '../../timing/latency-histogram.js';
import { formatMsShort, PHASE_LABELS, type TimingReport } from '../format-timing-report.js';
import { histogramSvg } from './histogram-svg.js';
import { html, type SafeHtml } from './html-template.js';
import { downsample, lineChartSvg } from './line-chart-svg.js';
import { renderPage } from './page-shell.js';

/** Milliseconds to the microsecond, as --json has them (rounded): the numbers people compare. */
function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '-';
}

/**
 * `toolrun time --html` (SPEC §17): the figures, the percentiles table, the connect phases, a latency
 * histogram and the latency of each call over the run. Every number is text in a table; the SVG
 * charts only draw them.
 */
export function renderTimingHtml(report: TimingReport, command: string): string {
  const { stats } = report;
  const origin = report.server ? `mcp:${report.server}` : report.source;
  const durations = report.durations_ms;
  const buckets = latencyHistogram(durations);
  const { points, perPoint } = downsample(durations);
  const body = html`<h1>${`toolrun time ${report.tool}`}</h1>
    <p class="muted">${`${origin} · ${report.iterations} calls after ${report.warmup} warm-up${report.warmup === 1 ? '' : 's'} · concurrency ${report.concurrency}`}</p>
    <p><code>${command}</code></p>
    <div class="figures">
      ${figure('p50', `${ms(stats.p50)} ms`)}${figure('p95', `${ms(stats.p95)} ms`)}${figure('p99', `${ms(stats.p99)} ms`)}${figure('calls/s', stats.calls_per_second.toFixed(1))}${figure('errors', String(stats.errors))}
    </div>
    ${report.stopped ? html`<p class="error">${report.stopped}</p>` : ''} ${budget(report)}
    <h2>Latency</h2>
    <table class="percentiles">
      <caption>
        ${`${stats.ok} successful calls, ms`}
      </caption>
      <tr>
        ${['min', 'p50', 'p90', 'p95', 'p99', 'max', 'mean', 'stddev'].map((name) => html`<th class="num">${name}</th>`)}
      </tr>
      <tr>
        ${[stats.min, stats.p50, stats.p90, stats.p95, stats.p99, stats.max, stats.mean, stats.stddev].map((value) => html`<td class="num">${ms(value)}</td>`)}
      </tr>
    </table>
    <table class="calls">
      <tr>
        <th>calls</th>
        <td class="num">${stats.count}</td>
        <th>ok</th>
        <td class="num">${stats.ok}</td>
        <th>errors</th>
        <td class="num">${stats.errors}</td>
        <th>calls/s</th>
        <td class="num">${stats.calls_per_second.toFixed(1)}</td>
      </tr>
    </table>
    ${phases(report)}
    <h2>Histogram</h2>
    ${buckets.length > 0 ? histogramSvg(buckets, { unit: 'ms', format: formatMsShort, caption: `Latency histogram of ${report.tool}` }) : html`<p class="muted">No successful call.</p>`}
    ${bucketTable(buckets)}
    <h2>Latency over the run</h2>
    ${
      points.length > 0
        ? html`${lineChartSvg(points, { xLabel: 'successful call, in order of completion', yLabel: 'ms', caption: `Latency of each call of ${report.tool}`, xMax: durations.length })}
            <p class="muted">${perPoint > 1 ? `Each point is the median of ${perPoint} consecutive calls; the band spans their fastest to slowest.` : 'One point per call.'}</p>`
        : ''
    }
    ${errors(report)}`;
  return renderPage({ title: `toolrun time ${report.tool}`, body });
}

function figure(label: string, value: string): SafeHtml {
  return html`<div class="figure"><span class="muted">${label}</span><b>${value}</b></div>`;
}

function budget(report: TimingReport): SafeHtml | '' {
  if (report.max_p95 === undefined) return '';
  const over = report.stats.p95 > report.max_p95;
  return html`<p class="${over ? 'fail' : 'pass'}">
    ${over ? `✘ p95 ${ms(report.stats.p95)} ms exceeds --max-p95 ${report.max_p95} ms` : `✔ p95 ${ms(report.stats.p95)} ms within --max-p95 ${report.max_p95} ms`}
  </p>`;
}

function phases(report: TimingReport): SafeHtml | '' {
  const entries = Object.entries(report.phases);
  if (entries.length === 0) return '';
  return html`<h2>Connect phases</h2>
    <table class="phases">
      <tr>
        <th>phase</th>
        <th class="num">ms</th>
      </tr>
      ${entries.map(
        ([key, value]) =>
          html`<tr>
            <td>${PHASE_LABELS[key] ?? key}</td>
            <td class="num">${ms(value)}</td>
          </tr>`,
      )}
    </table>`;
}

function bucketTable(buckets: ReturnType<typeof latencyHistogram>): SafeHtml | '' {
  if (buckets.length === 0) return '';
  return html`<table class="buckets">
    <caption>
      Calls per latency bucket
    </caption>
    <tr>
      <th class="num">from ms</th>
      <th class="num">to ms</th>
      <th class="num">calls</th>
    </tr>
    ${buckets.map(
      (bucket) =>
        html`<tr>
          <td class="num">${ms(bucket.from)}</td>
          <td class="num">${ms(bucket.to)}</td>
          <td class="num">${bucket.count}</td>
        </tr>`,
    )}
  </table>`;
}

function errors(report: TimingReport): SafeHtml | '' {
  const entries = Object.entries(report.errors);
  if (entries.length === 0 && !report.other_errors) return '';
  return html`<h2>Errors</h2>
    <table class="errors">
      <tr>
        <th class="num">calls</th>
        <th>message</th>
      </tr>
      ${entries.map(
        ([message, count]) =>
          html`<tr>
            <td class="num">${count}</td>
            <td class="error">${message}</td>
          </tr>`,
      )}${
        report.other_errors
          ? html`<tr>
              <td class="num">${report.other_errors.calls}</td>
              <td class="muted">${`in ${report.other_errors.distinct} other distinct messages`}</td>
            </tr>`
          : ''
      }
    </table>`;
}
