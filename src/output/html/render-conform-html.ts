import type { CheckEvidence, CheckResult, ConformReport, Verdict } from '../../conform/conform-types.js';
import { compactJson, profileName } from '../format-conform-report.js';
import { px } from './chart-scale.js';
import { html, type SafeHtml } from './html-template.js';
import { renderPage } from './page-shell.js';
import { maskThenCut } from '../../secrets/mask-secrets.js';

const VERDICTS: Verdict[] = ['pass', 'fail', 'warn', 'skip'];
const VERDICT_WORDS: Record<Verdict, string> = { pass: 'passed', fail: 'failed', warn: 'warnings', skip: 'skipped' };
/** A server with 500 invalid frames must not make a page nobody can scroll: the rest are in --json. */
const MAX_EVIDENCE = 20;
/** Enough of one frame to read it; --json has it whole. */
const FRAME_CHARS = 8000;

/**
 * `toolrun mcp conform --html` (SPEC §17): the header (server, transport, revision, profile, the
 * counts as text and as a bar), then one row per check with its verdict, id, a link to its section of
 * the spec, its message and its evidence (frames in <pre>). Every server string goes through `html`.
 */
export function renderConformHtml(report: ConformReport): string {
  const title = `toolrun mcp conform ${report.server}`;
  const about = [report.transport, report.protocolVersion, `profile ${profileName(report)}`].filter(Boolean).join(' · ');
  const body = report.unreachable
    ? html`<h1>${title}</h1>
        <p class="muted">${about}</p>
        <p class="fail">${`unreachable: ${report.unreachable}`}</p>`
    : html`<h1>${title}</h1>
        <p class="muted">${about}</p>
        <p class="${report.summary.fail > 0 ? 'fail' : 'pass'}">${summaryText(report)}</p>
        ${summaryBar(report)} ${calls(report)}
        <h2>Checks</h2>
        <table class="checks">
          <tr>
            <th>verdict</th>
            <th>check</th>
            <th>spec</th>
            <th>result</th>
          </tr>
          ${byVerdict(report.checks).map((result) => checkRow(result, report.specBase))}
        </table>`;
  return renderPage({ title, body });
}

/** What needs the reader first: failures, then warnings, then skips; passes last. Stable within a verdict. */
const READING_ORDER: Verdict[] = ['fail', 'warn', 'skip', 'pass'];

function byVerdict(checks: CheckResult[]): CheckResult[] {
  return READING_ORDER.flatMap((verdict) => checks.filter((result) => result.verdict === verdict));
}

function summaryText(report: ConformReport): string {
  const { pass, fail, warn, skip } = report.summary;
  return `${pass} passed, ${fail} failed, ${warn} warning${warn === 1 ? '' : 's'}, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`;
}

/** The four counts as one stacked bar, each part titled with its count (the same numbers as the text above). */
function summaryBar(report: ConformReport): SafeHtml {
  const total = Math.max(1, report.checks.length);
  const width = 600;
  let x = 0;
  const parts = VERDICTS.filter((verdict) => report.summary[verdict] > 0).map((verdict) => {
    const part = (report.summary[verdict] / total) * width;
    const rect = html`<rect class="${verdict}" x="${px(x)}" y="0" width="${px(part)}" height="14"><title>${`${report.summary[verdict]} ${VERDICT_WORDS[verdict]}`}</title></rect>`;
    x += part;
    return rect;
  });
  return html`<svg class="summary-bar" viewBox="0 0 ${width} 14" width="${width}" height="14" role="img">
    <title>${summaryText(report)}</title>
    ${parts}
  </svg>`;
}

function calls(report: ConformReport): SafeHtml | '' {
  if (report.calls.length === 0) return '';
  return html`<h2>Tools called</h2>
    <table class="tool-calls">
      <tr>
        <th>tool</th>
        <th>arguments</th>
      </tr>
      ${report.calls.map(
        (call) =>
          html`<tr>
            <td class="mono">${call.tool}</td>
            <td>
              ${call.skipped ? html`<span class="skip">${`not called: ${call.skipped}`}</span>` : html`<code>${compactJson(call.arguments)}</code>${call.generated ? html` <span class="muted">(generated from the schema)</span>` : ''}`}
            </td>
          </tr>`,
      )}
    </table>`;
}

function checkRow(result: CheckResult, specBase: string | undefined): SafeHtml {
  return html`<tr class="${`check check-${result.verdict}`}" id="${`check-${result.id}`}">
    <td class="${`verdict ${result.verdict}`}">${result.verdict}</td>
    <td><code>${result.id}</code><br /><span class="muted">${result.title}</span></td>
    <td>${specLink(specBase, result.section)}</td>
    <td>${result.message}${evidence(result.evidence, result.message)}</td>
  </tr>`;
}

// Only a link of the one known shape: a revision and a section made of path characters, on the spec's site.
const SPEC_BASE = /^https:\/\/modelcontextprotocol\.io\/specification\/[\w.-]+\/$/;
const SECTION = /^[\w.\-/]+(#[\w.-]+)?$/;

/** A link to the spec section (it loads nothing: the reader follows it or not); plain text when the shape is unexpected. */
function specLink(specBase: string | undefined, section: string): SafeHtml {
  if (!specBase || !SPEC_BASE.test(specBase) || !SECTION.test(section)) return html`<span class="mono">${section}</span>`;
  return html`<a class="mono" href="${specBase + section}">${section}</a>`;
}

// A check whose one finding is its message says it once: the evidence row keeps only where and the frame.
function evidence(allItems: CheckEvidence[], message: string): SafeHtml | '' {
  const items = allItems.filter((item) => item.detail !== message || item.frame !== undefined || item.path !== undefined || item.line !== undefined);
  if (items.length === 0) return '';
  return html`${items.slice(0, MAX_EVIDENCE).map((item) => {
    const where = [item.path === undefined ? undefined : `at ${item.path}`, item.line === undefined ? undefined : `stdout line ${item.line}`].filter(Boolean).join(', ');
    return html`<div class="evidence">
      <div>${item.detail === message ? '' : item.detail}${where ? html` <span class="muted">${`(${where})`}</span>` : ''}</div>
      ${item.frame === undefined ? '' : html`<pre>${`${item.direction ?? 'frame'}: ${frameText(item.frame)}`}</pre>`}
    </div>`;
  })}${items.length > MAX_EVIDENCE ? html`<p class="muted">${`… ${items.length - MAX_EVIDENCE} more (--json has them all)`}</p>` : ''}`;
}

function frameText(frame: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(frame, null, 2) ?? String(frame);
  } catch {
    text = compactJson(frame);
  }
  return maskThenCut(text, FRAME_CHARS + 1, '…');
}
