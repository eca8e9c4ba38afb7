import { describe, expect, it } from 'vitest';
import type { TimingReport } from '../../../src/output/format-timing-report.js';
import { renderConformHtml } from '../../../src/output/html/render-conform-html.js';
import { renderTimelineHtml } from '../../../src/output/html/render-timeline-html.js';
import { renderTimingHtml } from '../../../src/output/html/render-timing-html.js';
import type { Timeline } from '../../../src/record/timeline.js';
import { computeStats } from '../../../src/timing/latency-stats.js';
import { check, HOSTILE, mixedReport, report } from '../conform-report-fixtures.js';

/** The page with the whitespace between tags and around text gone (the formatter's indentation), as the tests compare it. */
function squash(page: string): string {
  return page
    .replace(/>\s+/g, '>')
    .replace(/\s+</g, '<')
    .replace(/<[^<>]+>/g, (tag) => tag.replace(/\s+/g, ' ').replace(/ ?\/>$/, '/>'));
}

const SCRIPT = '</pre></svg><script>alert(1)</script><img src="https://evil.example/x.png">';

/** Every tag's name and attributes (values unescaped of nothing: they are compared as written). */
function tags(page: string): Array<{ name: string; attributes: Array<[string, string]> }> {
  const withoutStyle = page.replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
  return [...withoutStyle.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)].map((match) => ({
    name: match[1]!.toLowerCase(),
    attributes: [...match[2]!.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((attribute) => [attribute[1]!.toLowerCase(), attribute[2] ?? ''] as [string, string]),
  }));
}

const SPEC_LINK = /^https:\/\/modelcontextprotocol\.io\/specification\/[\w.-]+\/[\w./#-]+$/;

/**
 * Self-contained (SPEC §17): nothing that loads. Outside text content the only URLs are links to the
 * spec (an <a href> loads nothing until followed); no script, stylesheet link, src, or CSS url() but
 * the page's own #markers; every `<` of the page opens a tag this check has read.
 */
function expectSelfContained(page: string): void {
  expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:"\/?>/);
  const found = tags(page);
  expect(page.replace(/<style>[\s\S]*?<\/style>/, '<style></style>').match(/<(?!\/)/g)!.length).toBe(found.length + 1); // + the doctype
  // Problems gathered, then one assertion: a page has thousands of attributes.
  const problems: string[] = [];
  for (const tag of found) {
    if (['script', 'link', 'iframe', 'object', 'embed', 'img', 'image', 'use', 'base', 'form', 'foreignobject'].includes(tag.name)) problems.push(`<${tag.name}>`);
    for (const [name, value] of tag.attributes) {
      if (['src', 'srcset', 'xlink:href', 'action', 'formaction', 'data', 'poster', 'background', 'style'].includes(name) || name.startsWith('on')) problems.push(`${name} on <${tag.name}>`);
      else if (name === 'href' ? !(tag.name === 'a' && SPEC_LINK.test(value)) : /https?:\/\/|url\((?!#)/i.test(value)) problems.push(`${name}="${value}" on <${tag.name}>`);
    }
  }
  expect(problems).toEqual([]);
  expect(page.replace(/url\(#[\w-]+\)/g, '')).not.toMatch(/url\(|@import/);
}

function timingReport(durations: number[]): TimingReport {
  return {
    tool: `slow${SCRIPT}`,
    source: 'mcp',
    server: 'srv',
    phases: { spawn_ms: 12.5, initialize_ms: 30.25, tools_list_ms: 4 },
    iterations: durations.length + 1,
    warmup: 2,
    concurrency: 1,
    stats: computeStats(durations, 1, 1000),
    errors: { [`boom ${SCRIPT}`]: 1 },
    durations_ms: durations,
    slow_tool_ms: 1000,
  };
}

describe('HTML reports', () => {
  it('time: the percentiles as text, a histogram with its bucket bounds, latency over the run, escaped tool and errors', () => {
    const durations = Array.from({ length: 300 }, (_, index) => 1 + (index % 10) / 10 + (index === 150 ? 50 : 0));
    const page = squash(renderTimingHtml(timingReport(durations), 'toolrun time slow --api-key hunter2hunter2'));
    expectSelfContained(page);
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('--api-key ***');
    const stats = computeStats(durations, 1, 1000);
    for (const value of [stats.p50, stats.p90, stats.p95, stats.p99, stats.min, stats.max, stats.mean]) expect(page).toContain(`<td class="num">${value.toFixed(3)}</td>`);
    expect(page).toMatch(/<svg class="chart histogram"[\s\S]*<\/svg>/);
    expect(page).toMatch(/<svg class="chart line-chart"[\s\S]*<polyline class="series"/);
    // The slow call is the last bucket, p99–max, not a squashed first bar.
    expect(page).toContain(`<td class="num">${stats.p99.toFixed(3)}</td><td class="num">51.000</td><td class="num">1</td>`);
    expect(page).toContain('<td>spawn</td><td class="num">12.500</td>');
  });

  it('time: 100,000 calls draw as at most 1,000 points', () => {
    const durations = Array.from({ length: 100_000 }, (_, index) => 1 + (index % 7));
    const page = squash(renderTimingHtml(timingReport(durations), 'toolrun time slow'));
    const line = /<polyline class="series" points="([^"]*)"/.exec(page)![1]!;
    expect(line.split(' ').length).toBe(1000);
    expect(page).toContain('Each point is the median of 100 consecutive calls');
    expect(page.length).toBeLessThan(200_000);
  });

  it('mcp show: a sequence of arrows and notes with line numbers, errors red, escaped server strings; long sessions drawn in part, summarized whole', () => {
    const events: Timeline['events'] = [
      { t: 1, kind: 'request', from: 'client', id: 1, method: 'initialize' },
      { t: 2, kind: 'pollution', text: `Loading ${SCRIPT}`, findings: ['not-json'], line: 1 },
      { t: 3, kind: 'stderr', text: `warn \u001b[31m${SCRIPT}`, line: 1 },
      { t: 4.5, kind: 'response', from: 'server', id: 1, method: 'initialize', latency_ms: 3.5 },
      { t: 5, kind: 'request', from: 'client', id: 2, method: 'tools/call' },
      { t: 9, kind: 'response', from: 'server', id: 2, method: 'tools/call', latency_ms: 4, error: { code: -32602, message: `bad ${SCRIPT}` } },
    ];
    for (let index = 0; index < 2500; index++) events.push({ t: 10 + index, kind: 'notification', from: 'server', method: 'notifications/message' });
    const timeline: Timeline = {
      header: { toolrun_recording: 1, server: `srv${SCRIPT}`, command: 'node server.js', started: '2024-01-01T00:00:00.000Z' },
      events,
      summary: { requests: 2, errors: 1, unanswered: 0, notifications: 2500, stderr_lines: 1, polluting_lines: 1, slowest: { method: 'tools/call', latency_ms: 4 } },
    };
    const page = squash(renderTimelineHtml(timeline));
    expectSelfContained(page);
    expect(page).not.toContain('<script>');
    expect(page).toContain('stdout line 1 not JSON-RPC (not-json): Loading &lt;/pre&gt;');
    expect(page).toContain('stderr line 1: warn \\x1b[31m&lt;/pre&gt;');
    expect(page).toContain('#1 initialize ok (3.5 ms)');
    expect(page).toMatch(/<line class="arrow error"[^>]*marker-end="url\(#head-error\)"\/><text class="error"[^>]*>#2 tools\/call error -32602 bad &lt;\/pre&gt;/);
    expect(page.match(/<g class="row /g)).toHaveLength(2000);
    expect(page).toContain('The first 2000 of 2506 events are drawn; 506 more are counted in the summary');
    expect(page).toContain('<tr><th>notifications</th><td class="num">2500</td></tr>');
    expect(page).toContain('<tr><th>duration</th><td class="num">2509.0 ms</td></tr>');
  });

  it('mcp conform: the counts, each check with its verdict, spec link, message and escaped evidence frames', () => {
    const page = squash(renderConformHtml(mixedReport()));
    expectSelfContained(page);
    expect(page).toContain('1 passed, 1 failed, 1 warning, 1 skipped in 1.4 s');
    expect(page).toContain('<a class="mono" href="https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool">server/tools#tool</a>');
    for (const id of ['lifecycle.initialize', 'tools.input-schema', 'ping', 'tools.call-structured']) expect(page).toContain(`<code>${id}</code>`);
    expect(page).toMatch(/<pre>received: \{\n {2}&quot;jsonrpc&quot;: &quot;2.0&quot;/);
    expect(page).toContain('(at result.tools[1].inputSchema, stdout line 7)');
  });

  it('mcp conform: failures first, then warnings, skips and passes; a message its evidence repeats is printed once', () => {
    const said = 'tool "now" has no inputSchema';
    const page = renderConformHtml(
      report([
        check({ id: 'ping', verdict: 'pass' }),
        check({ id: 'prompts.get', verdict: 'skip', message: 'no prompts' }),
        check({ id: 'tools.names', verdict: 'warn', message: 'a name is long' }),
        check({ id: 'tools.input-schema', verdict: 'fail', message: said, evidence: [{ detail: said }, { detail: said, path: 'result.tools[1].inputSchema' }] }),
      ]),
    );
    const order = ['tools.input-schema', 'tools.names', 'prompts.get', 'ping'].map((id) => page.indexOf(`<code>${id}</code>`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(page.split('tool &quot;now&quot; has no inputSchema')).toHaveLength(2);
    expect(page).toContain('(at result.tools[1].inputSchema)');
  });

  it('mcp conform: a hostile server name, message, section and frame stay text, and a section of another shape is no link', () => {
    const hostile = report([check({ id: `x${HOSTILE}`, verdict: 'fail', section: `javascript:alert(1)${HOSTILE}`, message: SCRIPT, evidence: [{ detail: HOSTILE, frame: { text: SCRIPT } }] })], {
      server: HOSTILE,
      specBase: 'javascript:alert(1)//',
    });
    const page = squash(renderConformHtml(hostile));
    expectSelfContained(page);
    expect(page).not.toMatch(/<script|<tool>|\x1b|\x00|\u009b/);
    expect(page).not.toContain('href="javascript');
    expect(page).toContain('<span class="mono">javascript:alert(1)evil&lt;tool&gt;]]&gt;&amp;amp;&quot;&#39;\\x00\\x1b[2J');
  });
});
