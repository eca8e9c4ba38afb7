import { relative } from 'node:path';
import type { TestResult } from '../../testing/run-test-suite.js';
import { formatFailureDetails } from '../format-test-report.js';
import { html } from './html-template.js';
import { renderPage } from './page-shell.js';

/**
 * `toolrun test --html FILE`: the counts, then every test file with its tests, failures first, each
 * failure with its place, the JSON path, expected and actual. Self-contained (page-shell.ts): no
 * script, no request, every string escaped by the template.
 */
export function renderTestHtml(results: TestResult[], cwd: string, run: { startedAt: Date; wallMs: number }): string {
  const count = (status: TestResult['status']) => results.filter((result) => result.status === status).length;
  const files = [...new Set(results.map((result) => result.file))];
  const order = { fail: 0, interrupted: 1, pass: 2, skip: 3 } as const;
  const body = html`<h1>toolrun test</h1>
    <p class="muted">${`${run.startedAt.toISOString()} · ${(run.wallMs / 1000).toFixed(1)} s`}</p>
    <div class="figures">
      <div class="figure"><span class="label">passed</span><span class="value">${String(count('pass'))}</span></div>
      <div class="figure"><span class="label">failed</span><span class="value">${String(count('fail'))}</span></div>
      <div class="figure"><span class="label">skipped</span><span class="value">${String(count('skip'))}</span></div>
      ${count('interrupted') > 0 ? html`<div class="figure"><span class="label">interrupted</span><span class="value">${String(count('interrupted'))}</span></div>` : ''}
    </div>
    ${files.map((file) => {
      const tests = results.filter((result) => result.file === file).sort((a, b) => order[a.status] - order[b.status]);
      return html`<h2>${relative(cwd, file)}</h2>
        <table>
          <tr>
            <th>result</th>
            <th>test</th>
            <th class="num">ms</th>
          </tr>
          ${tests.map(
            (result) =>
              html`<tr class="${result.status === 'fail' ? 'error' : ''}">
                <td>
                  ${result.status === 'pass' ? '✔ passed' : result.status === 'fail' ? '✖ failed' : result.status === 'interrupted' ? '⊘ interrupted (Ctrl-C)' : `○ skipped: ${result.skipReason ?? ''}`}
                </td>
                <td>${result.name}${result.status === 'fail' ? html`<pre>${formatFailureDetails(result, cwd).join('\n')}</pre>` : ''}</td>
                <td class="num">${String(Math.round(result.ms))}</td>
              </tr>`,
          )}
        </table>`;
    })}`;
  return renderPage({ title: 'toolrun test', body });
}
