import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess, runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

// SPEC §17: `--html FILE` on time, mcp show and mcp conform: one self-contained page each, rendered
// here by a real headless browser (Debian's chromium): a screenshot, the DOM, and the console.
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.log(`[skip] ${CHROMIUM} is not installed: the HTML reports are made and checked, not rendered in a browser`);

const config = writeTempConfig({ mcpServers: { noisy: fixtureServer('polluting-server.js'), 'no-input-schema': fixtureServer('conform-no-input-schema-server.js') } });

/**
 * One chromium launch per page (startup is the slow part): the screenshot and the DOM after layout in
 * the same run, and the console on stderr (--enable-logging). Nothing that can reach the network runs.
 */
async function render(page: string): Promise<{ dom: string; png: Buffer; consoleLines: string[] }> {
  const png = join(mkdtempSync(join(tmpdir(), 'toolrun-html-')), 'page.png');
  const browser = await execa(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${mkdtempSync(join(tmpdir(), 'toolrun-chromium-'))}`,
      '--enable-logging=stderr',
      '--v=0',
      '--window-size=1200,900',
      `--screenshot=${png}`,
      '--dump-dom',
      `file://${page}`,
    ],
    { reject: false, timeout: 30_000, stdin: 'ignore' },
  );
  expect(browser.exitCode, browser.stderr).toBe(0);
  // The pages have no script: any console line is the browser refusing something (a CSP violation, a failed load).
  return { dom: squash(browser.stdout), png: readFileSync(png), consoleLines: browser.stderr.split('\n').filter((line) => line.includes(':CONSOLE')) };
}

/** The DOM without the whitespace between tags and around text (the source's indentation), as the tests compare it. */
function squash(dom: string): string {
  return dom.replace(/>\s+/g, '>').replace(/\s+</g, '<');
}

/** A real PNG of the window's size with something drawn (a blank page compresses to ~5 kB). */
function expectScreenshot(png: Buffer): void {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 900]);
  expect(png.length).toBeGreaterThan(20_000);
}

describe('HTML reports (--html)', () => {
  it('time, mcp show and mcp conform each write a page the browser renders: the charts, the numbers, no console message; stdout keeps its usual output', async () => {
    const dir = tempDir();
    const recording = join(dir, 'noisy.rec');
    const [timed, , conformed] = await Promise.all([
      runInProcess(['--json', 'time', 'get_current_datetime', '-n', '50', '--html', join(dir, 'time.html')]),
      runCleanInProcess(['--config', config, 'mcp', 'check-stdout', 'noisy', '--save', recording]),
      runCleanInProcess(['--config', config, '--json', 'mcp', 'conform', 'no-input-schema', '--html', join(dir, 'conform.html')]),
    ]);
    const shown = await runInProcess(['mcp', 'show', recording, '--html', join(dir, 'show.html')]);

    expect(timed).toMatchObject({ exitCode: 0, stderr: '' });
    const timing = JSON.parse(timed.stdout);
    expect(shown).toMatchObject({ exitCode: 0, stderr: '' });
    expect(shown.stdout).toMatch(/^recording of noisy/);
    expect(shown.stdout).toContain('✖ stdout not JSON-RPC (not-json): "Loading config..."');
    expect(conformed.exitCode).toBe(1);
    const report = JSON.parse(conformed.stdout);
    const ids: string[] = report.checks.map((check: { id: string }) => check.id);
    expect(ids).toContain('tools.input-schema');

    // The page says how it was made: the whole command line, options included.
    expect(readFileSync(join(dir, 'time.html'), 'utf8')).toContain(`<code>toolrun --json time get_current_datetime -n 50 --html ${join(dir, 'time.html')}</code>`);

    if (!haveChromium) return;
    const [time, show, conform] = await Promise.all(['time.html', 'show.html', 'conform.html'].map((name) => render(join(dir, name))));
    for (const page of [time, show, conform]) {
      expectScreenshot(page.png);
      expect(page.consoleLines).toEqual([]);
    }

    expect(time.dom).toMatch(/<svg class="chart histogram"[^>]*>[\s\S]*<rect class="bar"/);
    expect(time.dom).toMatch(/<svg class="chart line-chart"[^>]*>[\s\S]*<polyline class="series"/);
    expect(time.dom).toContain(`<td class="num">${timing.stats.p50.toFixed(3)}</td>`);
    expect(time.dom).toContain(`<td class="num">${timing.stats.p99.toFixed(3)}</td>`);

    expect(show.dom).toMatch(/<svg class="chart sequence"[^>]*>[\s\S]*<line class="arrow error"/);
    expect(show.dom).toContain('stdout line 1 not JSON-RPC (not-json): Loading config...');
    expect(show.dom).toContain('<td class="mono">Server ready</td>');
    expect(show.dom).toContain('<tr><th>polluting stdout lines</th><td class="num error">2</td></tr>');

    expect(conform.dom).toContain(`${report.summary.pass} passed, ${report.summary.fail} failed`);
    expect(conform.dom).toMatch(/<svg class="summary-bar"/);
    for (const id of ids) expect(conform.dom).toContain(`<code>${id}</code>`);
    expect(conform.dom).toContain('<a class="mono" href="https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool">server/tools#tool</a>');
  }, 90_000);

  it('an --html folder that does not exist is exit 2 before any work', async () => {
    const results = await Promise.all([
      runInProcess(['time', 'get_current_datetime', '--html', '/nonexistent-folder/t.html']),
      runInProcess(['mcp', 'show', '/nonexistent-recording.rec', '--html', '/nonexistent-folder/s.html']),
      runCleanInProcess(['--config', config, 'mcp', 'conform', 'no-input-schema', '--html', '/nonexistent-folder/c.html']),
    ]);
    for (const [result, file] of results.map((result, index) => [result, ['t', 's', 'c'][index]] as const)) {
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr).toBe(`✖ --html /nonexistent-folder/${file}.html: the folder /nonexistent-folder does not exist`);
    }
  });
});
