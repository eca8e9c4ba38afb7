import { relative } from 'node:path';
import type { EvalCaseResult } from '../eval/eval-result.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { escapeControls } from './escape-controls.js';
import { attributes, seconds, text } from './junit-xml.js';
import type { Style } from './style.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const safe = (value: string) => escapeControls(maskSecrets(value));

/** `✔ name · openai:gpt-4.1 · 3/3 100% [44%–100%] · 812 in / 40 out tokens · 950 ms`, then each distinct failure reason under a miss. */
export function formatEvalLine(result: EvalCaseResult, style: Style): string {
  const mark = result.met ? style.green('✔') : style.red('✖');
  const score = `${result.passed}/${result.runs.length} ${percent(result.passRate)} [${percent(result.interval.low)}–${percent(result.interval.high)}]`;
  const cost = `${result.inputTokens} in / ${result.outputTokens} out tokens · ${Math.round(result.latencyMs)} ms`;
  const lines = [`${mark} ${safe(result.name)} ${style.dim(`· ${safe(result.model)} ·`)} ${score} ${style.dim(`· ${cost}`)}`];
  if (!result.met) for (const reason of failureReasons(result)) lines.push(`    ${safe(reason)}`);
  return lines.join('\n');
}

/** The distinct reasons its runs failed, with how many runs gave each: `expected get_weather, the model called get_time (2 of 3 runs)`. */
export function failureReasons(result: EvalCaseResult): string[] {
  const counts = new Map<string, number>();
  for (const run of result.runs) for (const reason of new Set(run.failures)) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => (result.runs.length > 1 ? `${reason} (${count} of ${result.runs.length} runs)` : reason));
}

export function formatEvalSummary(results: EvalCaseResult[], minPassRate: number, wallMs: number, style: Style): string {
  const met = results.filter((result) => result.met).length;
  const missed = results.length - met;
  const parts = [`${met} met`, ...(missed > 0 ? [style.red(`${missed} below`)] : [])];
  return `${parts.join(', ')} the pass rate ${percent(minPassRate)} (${results.length} case${results.length === 1 ? '' : 's'} × model, ${(wallMs / 1000).toFixed(1)} s)`;
}

/** `--json`: every case × model with its runs (turns, calls, failures), its score and its cost. */
export function evalReportJson(results: EvalCaseResult[], minPassRate: number, wallMs: number, cwd: string) {
  return {
    success: results.every((result) => result.met),
    min_pass_rate: minPassRate,
    summary: { met: results.filter((result) => result.met).length, below: results.filter((result) => !result.met).length, total: results.length, wall_ms: Math.round(wallMs) },
    cases: results.map((result) => ({
      file: relative(cwd, result.file),
      name: result.name,
      line: result.place.line,
      prompt: result.prompt,
      model: result.model,
      met: result.met,
      passed: result.passed,
      runs: result.runs.length,
      pass_rate: result.passRate,
      interval: { low: round(result.interval.low), high: round(result.interval.high) },
      tokens: { input: result.inputTokens, output: result.outputTokens },
      latency_ms: Math.round(result.latencyMs),
      failures: failureReasons(result),
      results: result.runs.map((run) => ({
        pass: run.pass,
        failures: run.failures,
        answer: run.answer,
        ...(run.error ? { error: run.error } : {}),
        ...(run.warnings ? { warnings: run.warnings } : {}),
        turns: run.turns.map((turn) => ({
          text: turn.text,
          finish_reason: turn.finishReason,
          tokens: { input: turn.inputTokens, output: turn.outputTokens },
          calls: turn.calls.map((call) => ({ called_as: call.calledAs, tool: call.tool ?? null, args: call.args, output: call.output, failed: call.failed })),
        })),
      })),
    })),
  };
}

/** JUnit: one testsuite per model, a testcase per case whose pass rate fell short is a <failure> naming why. */
export function formatEvalJunit(results: EvalCaseResult[], cwd: string, options: { startedAt: Date; hostname?: string }): string {
  const models = [...new Set(results.map((result) => result.model))];
  const suites = models.map((model, index) => {
    const cases = results.filter((result) => result.model === model);
    const head = attributes({
      name: model,
      package: 'toolrun.eval',
      id: String(index),
      hostname: options.hostname || 'localhost',
      timestamp: options.startedAt.toISOString().slice(0, 19),
      tests: String(cases.length),
      failures: String(cases.filter((result) => !result.met).length),
      errors: '0',
      skipped: '0',
      time: seconds(cases.reduce((sum, result) => sum + result.latencyMs * result.runs.length, 0)),
    });
    return [
      `  <testsuite${head}>`,
      '    <properties>',
      `      <property${attributes({ name: 'model', value: model })}/>`,
      '    </properties>',
      ...cases.map((result) => {
        const testcase = `    <testcase${attributes({ classname: relative(cwd, result.file), name: result.name, time: seconds(result.latencyMs * result.runs.length) })}`;
        if (result.met) return `${testcase}/>`;
        const message = `${result.passed}/${result.runs.length} runs passed: ${failureReasons(result).join('; ')}`;
        return `${testcase}>\n      <failure${attributes({ message, type: 'pass-rate' })}>${text(failureReasons(result).join('\n'))}</failure>\n    </testcase>`;
      }),
      '    <system-out></system-out>',
      '    <system-err></system-err>',
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>', ...suites, '</testsuites>', ''].join('\n');
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
