import { relative } from 'node:path';
import type { EvalCaseResult, EvalRun } from '../../eval/eval-result.js';
import { maskSecrets } from '../../secrets/mask-secrets.js';
import { failureReasons } from '../format-eval-report.js';
import { html } from './html-template.js';
import { renderPage } from './page-shell.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/**
 * `toolrun eval --html FILE`: per case and model, the score, why it fell short, and each run's turns
 * (the model's text, every call with its arguments and what it got back). Self-contained
 * (page-shell.ts), every string escaped by the template and masked.
 */
export function renderEvalHtml(results: EvalCaseResult[], cwd: string, run: { startedAt: Date; wallMs: number; minPassRate: number }): string {
  const met = results.filter((result) => result.met).length;
  const body = html`<h1>toolrun eval</h1>
    <p class="muted">${`${run.startedAt.toISOString()} · ${(run.wallMs / 1000).toFixed(1)} s · pass rate needed ${percent(run.minPassRate)}`}</p>
    <div class="figures">
      <div class="figure"><span class="label">met</span><span class="value">${String(met)}</span></div>
      <div class="figure"><span class="label">below</span><span class="value">${String(results.length - met)}</span></div>
    </div>
    ${results.map(
      (result) =>
        html`<h2>${`${result.met ? '✔' : '✖'} ${maskSecrets(result.name)} · ${result.model}`}</h2>
          <p class="muted">
            ${`${relative(cwd, result.file)}:${result.place.line} · ${result.passed}/${result.runs.length} runs passed (${percent(result.passRate)}, 95% interval ${percent(result.interval.low)}–${percent(result.interval.high)}) · ${result.inputTokens} input / ${result.outputTokens} output tokens · ${Math.round(result.latencyMs)} ms a run`}
          </p>
          <p>${`Prompt: ${maskSecrets(result.prompt)}`}</p>
          ${result.met ? '' : html`<pre>${maskSecrets(failureReasons(result).join('\n'))}</pre>`} ${result.runs.map((each, index) => runTable(each, index))}`,
    )}`;
  return renderPage({ title: 'toolrun eval', body });
}

function runTable(run: EvalRun, index: number) {
  return html`<h3>${`run ${index + 1}: ${run.pass ? 'passed' : 'failed'}`}</h3>
    <table>
      <tr>
        <th>turn</th>
        <th>the model</th>
        <th>calls</th>
      </tr>
      ${run.turns.map(
        (turn, turnIndex) =>
          html`<tr>
            <td class="num">${String(turnIndex + 1)}</td>
            <td>${maskSecrets(turn.text)}</td>
            <td>
              ${turn.calls.map(
                (call) =>
                  html`<pre class="${call.failed ? 'error' : ''}">
${maskSecrets(`${call.calledAs}${call.tool && call.tool !== call.calledAs ? ` → ${call.tool}` : ''}(${JSON.stringify(call.args)})\n→ ${call.output}`)}</pre>`,
              )}
            </td>
          </tr>`,
      )}
    </table>
    ${run.error ? html`<pre class="error">${maskSecrets(run.error)}</pre>` : ''}`;
}
