import { relative } from 'node:path';
import type { TestResult } from '../testing/run-test-suite.js';
import { escapeData, escapeProperty } from './format-github-annotations.js';
import { escapeControls } from './escape-controls.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { attributes, seconds, text } from './junit-xml.js';
import type { Style } from './style.js';

/** Values longer than this are shown cut in the terminal (the JSON and JUnit reports have them whole). */
const SHOWN_VALUE = 300;

/** `✔ name · 12 ms`, `✖ name · 12 ms`, `○ name · skipped: reason`, `⊘ name · interrupted after 12 ms (Ctrl-C)`; with `cwd`, `✔ FILE › name · 12 ms`. */
export function formatTestLine(result: TestResult, style: Style, options: { cwd?: string } = {}): string {
  // With files running side by side their lines interleave: each names its file (`FILE › name`), as vitest's do.
  const file = options.cwd !== undefined ? `${escapeControls(relative(options.cwd, result.file) || result.file)} › ` : '';
  const name = file + escapeControls(maskSecrets(result.name));
  if (result.status === 'skip') return `${style.yellow('○')} ${name} ${style.dim(`· skipped: ${result.skipReason ?? ''}`)}`;
  if (result.status === 'interrupted') return `${style.yellow('⊘')} ${name} ${style.dim(`· interrupted after ${Math.round(result.ms)} ms (Ctrl-C)`)}`;
  const mark = result.status === 'pass' ? style.green('✔') : style.red('✖');
  const wrote = result.wroteSnapshot ? style.dim(' · snapshot written') : '';
  return `${mark} ${name} ${style.dim(`· ${Math.round(result.ms)} ms`)}${wrote}`;
}

/** Under a failed test: its place, each failed expectation (JSON path, expected, actual), and the request. */
export function formatFailureDetails(result: TestResult, cwd: string): string[] {
  const lines = [`    at ${placeOf(result, cwd)}`];
  for (const failure of result.failures) {
    lines.push(`    ${failure.matcher}${failure.path ? ` ${failure.path}` : ''}: ${oneLine(failure.message)}`);
    if (failure.matcher !== 'setup' && !(failure.matcher === 'error' && failure.expected === 'no error')) {
      lines.push(`      expected: ${shown(failure.expected)}`);
      lines.push(`      actual:   ${shown(failure.actual)}`);
    }
  }
  lines.push(`    request: ${shown(requestText(result))}`);
  return lines;
}

export function formatTestSummary(results: TestResult[], wallMs: number, style: Style): string {
  const count = (status: TestResult['status']) => results.filter((result) => result.status === status).length;
  const parts = [`${count('pass')} passed`];
  if (count('fail') > 0) parts.push(style.red(`${count('fail')} failed`));
  if (count('skip') > 0) parts.push(style.yellow(`${count('skip')} skipped`));
  if (count('interrupted') > 0) parts.push(style.yellow(`${count('interrupted')} interrupted`));
  return `${parts.join(', ')} (${results.length} test${results.length === 1 ? '' : 's'}, ${(wallMs / 1000).toFixed(1)} s)`;
}

/** `--json`: one document with every test, its failures, and the counts. */
export function testReportJson(results: TestResult[], wallMs: number, cwd: string) {
  const count = (status: TestResult['status']) => results.filter((result) => result.status === status).length;
  return {
    success: count('fail') === 0 && count('interrupted') === 0,
    summary: { passed: count('pass'), failed: count('fail'), skipped: count('skip'), interrupted: count('interrupted'), total: results.length, wall_ms: Math.round(wallMs) },
    tests: results.map((result) => ({
      file: relative(cwd, result.file),
      name: result.name,
      line: result.place.line,
      column: result.place.column,
      status: result.status,
      ms: Math.round(result.ms * 100) / 100,
      ...(result.skipReason ? { skip_reason: result.skipReason } : {}),
      ...(result.failures.length > 0 ? { failures: result.failures } : {}),
      ...(result.wroteSnapshot ? { snapshot_written: true } : {}),
      request: result.request,
    })),
  };
}

/**
 * `--junit FILE`: one <testsuite> per test file, one <testcase> per test, inside the same schemas
 * as `mcp conform --junit` (Jenkins' and Ant's: junit-xml.ts keeps every value parseable).
 */
export function formatTestJunit(results: TestResult[], cwd: string, options: { startedAt: Date; hostname?: string }): string {
  const files = [...new Set(results.map((result) => result.file))];
  const suites = files.map((file, index) => {
    const cases = results.filter((result) => result.file === file);
    const name = relative(cwd, file);
    const head = attributes({
      name,
      package: 'toolrun.test',
      id: String(index),
      hostname: options.hostname || 'localhost',
      timestamp: options.startedAt.toISOString().slice(0, 19),
      tests: String(cases.length),
      failures: String(cases.filter((result) => result.status === 'fail').length),
      // A test Ctrl-C cut short did not finish: an <error>, JUnit's element for a test that could not complete.
      errors: String(cases.filter((result) => result.status === 'interrupted').length),
      skipped: String(cases.filter((result) => result.status === 'skip').length),
      time: seconds(cases.reduce((sum, result) => sum + result.ms, 0)),
    });
    return [
      `  <testsuite${head}>`,
      // One property at least: an empty <properties/> is a question some schema versions answer differently.
      '    <properties>',
      `      <property${attributes({ name: 'file', value: name })}/>`,
      '    </properties>',
      ...cases.map((result) => {
        const testcase = `    <testcase${attributes({ classname: name, name: result.name, time: seconds(result.ms) })}`;
        if (result.status === 'skip') return `${testcase}>\n      <skipped${attributes({ message: result.skipReason ?? '' })}/>\n    </testcase>`;
        if (result.status === 'pass') return `${testcase}/>`;
        if (result.status === 'interrupted')
          return `${testcase}>\n      <error${attributes({ message: `interrupted (Ctrl-C) after ${Math.round(result.ms)} ms`, type: 'interrupted' })}/>\n    </testcase>`;
        const message = result.failures.map((failure) => `${failure.matcher}${failure.path ? ` ${failure.path}` : ''}: ${failure.message}`).join('; ');
        return `${testcase}>\n      <failure${attributes({ message, type: result.failures[0]?.matcher ?? 'failure' })}>${text(formatFailureDetails(result, cwd).join('\n'))}</failure>\n    </testcase>`;
      }),
      '    <system-out></system-out>',
      '    <system-err></system-err>',
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites, '</testsuites>', ''].join('\n');
}

/** In GitHub Actions: one `::error file=…,line=…` per failed test, so it shows on the test file's line. */
export function testAnnotations(results: TestResult[], cwd: string): string[] {
  return results
    .filter((result) => result.status === 'fail')
    .slice(0, 10)
    .map((result) => {
      const properties = `file=${escapeProperty(relative(cwd, result.file))},line=${result.place.line},col=${result.place.column},title=${escapeProperty(clean(`toolrun test: ${result.name}`))}`;
      return `::error ${properties}::${escapeData(clean(result.failures.map((failure) => `${failure.matcher}${failure.path ? ` ${failure.path}` : ''}: ${failure.message}`).join('\n')))}`;
    });
}

function placeOf(result: TestResult, cwd: string): string {
  return `${relative(cwd, result.file)}:${result.place.line}:${result.place.column}`;
}

function requestText(result: TestResult): unknown {
  const { action, server, args } = result.request;
  const target = action.kind === 'call' ? action.tool : action.kind === 'read' ? action.uri : action.kind === 'get' ? action.prompt : action.kind === 'skill' ? action.skill : action.what;
  return {
    [action.kind]: server && action.kind === 'call' ? `${server}:${target}` : target,
    ...(server && action.kind !== 'call' ? { server } : {}),
    ...(Object.keys(args).length > 0 ? { args } : {}),
  };
}

function shown(value: unknown): string {
  const json = value === undefined ? 'nothing' : typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return oneLine(json.length > SHOWN_VALUE ? `${json.slice(0, SHOWN_VALUE)}… (${json.length} characters; --json has it whole)` : json);
}

function oneLine(value: string): string {
  return escapeControls(maskSecrets(value));
}

function clean(value: string): string {
  return escapeControls(maskSecrets(value));
}
