#!/usr/bin/env node
// The one script of action.yml (the repository's GitHub Action): builds toolrun in its own checkout, runs
// `toolrun mcp conform --junit FILE -- SERVER`, then `toolrun mcp diff -- SNAPSHOT SERVER` when a snapshot
// is given, then `toolrun test --junit FILE -- TESTS` when test files are given, then `toolrun mcp lint
// --sarif FILE` (of the snapshot, else the server) when `lint` is given, then `toolrun mcp verify --junit
// FILE -- FILES` when `verify` is given, and fails the step if any failed. The action passes its inputs as environment
// variables (never spliced into a shell line: a server name or a call comes from the workflow's
// author and may hold quotes, `$(…)` or `;`), and every command here is spawned with an argument
// array and no shell. test/e2e/github-action.test.ts runs this file exactly that way.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ACTION_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const env = process.env;

/** Exit codes of toolrun (README, "Exit codes"; docs/commands.md, "Output and exit codes"), in the words the step's log uses. */
const MEANING = { 0: 'passed', 1: 'failed', 2: 'usage error', 3: 'configuration error', 4: 'server unreachable', 130: 'interrupted' };

function main() {
  const inputs = readInputs();
  const toolrun = resolveToolrun();
  const global = inputs.config ? ['--config', inputs.config] : [];

  // The server (and the snapshot) after `--`: an input such as `--config=evil.json` is a name that
  // matches no server, never an option that runs another config's server.
  let conform;
  if (inputs.server) {
    const conformArgs = [...global, 'mcp', 'conform', '--profile', inputs.profile, '--junit', inputs.junit];
    for (const call of inputs.calls) conformArgs.push('--call', call);
    if (inputs.callAll) conformArgs.push('--call-all');
    conform = run(toolrun, [...conformArgs, '--', inputs.server]);
  }

  // The diff runs even when conform failed: a breaking API change is worth knowing on the same run.
  const diff = inputs.snapshot && inputs.server ? run(toolrun, [...global, 'mcp', 'diff', '--', inputs.snapshot, inputs.server]) : undefined;

  // Test files (toolrun test), their paths after `--` too; their JUnit beside conform's.
  const tests = inputs.tests.length > 0 ? run(toolrun, [...global, 'test', '--junit', inputs.testsJunit, '--', ...inputs.tests]) : undefined;

  // The lint: the committed snapshot when there is one (offline), else the server, after `--`.
  let lint;
  if (inputs.lint) {
    const lintArgs = [...global, 'mcp', 'lint', '--sarif', inputs.lintSarif];
    if (inputs.lint !== 'all') lintArgs.push('--target', inputs.lint);
    if (inputs.lintMaxTokens) lintArgs.push('--max-tokens', inputs.lintMaxTokens);
    lint = run(toolrun, inputs.snapshot ? [...lintArgs, `--snapshot=${inputs.snapshot}`] : [...lintArgs, '--', inputs.server]);
  }

  // server.json files and .mcpb bundles (toolrun mcp verify), after `--`; --launch only when asked (it installs packages).
  let verify;
  if (inputs.verify.length > 0) {
    const verifyArgs = [...global, 'mcp', 'verify', '--junit', inputs.verifyJunit];
    if (inputs.verifyLaunch) verifyArgs.push('--launch');
    verify = run(toolrun, [...verifyArgs, '--', ...inputs.verify]);
  }

  const verdict = verdictOf([conform, diff, tests, lint, verify]);
  writeOutputs({
    junit: inputs.server ? inputs.junit : '',
    verdict,
    'conform-exit-code': conform === undefined ? '' : String(conform),
    'diff-exit-code': diff === undefined ? '' : String(diff),
    'tests-junit': tests === undefined ? '' : inputs.testsJunit,
    'tests-exit-code': tests === undefined ? '' : String(tests),
    'lint-sarif': lint === undefined ? '' : inputs.lintSarif,
    'lint-exit-code': lint === undefined ? '' : String(lint),
    'verify-junit': verify === undefined ? '' : inputs.verifyJunit,
    'verify-exit-code': verify === undefined ? '' : String(verify),
  });
  const parts = [];
  if (conform !== undefined) parts.push(`conform ${describe(conform)}`);
  if (diff !== undefined) parts.push(`diff against ${inputs.snapshot} ${diff === 1 ? 'found a breaking change' : describe(diff)}`);
  if (tests !== undefined) parts.push(`tests ${describe(tests)}`);
  if (lint !== undefined) parts.push(`lint ${describe(lint)}`);
  if (verify !== undefined) parts.push(`verify ${describe(verify)}`);
  const junits = [inputs.server ? inputs.junit : undefined, tests === undefined ? undefined : inputs.testsJunit, verify === undefined ? undefined : inputs.verifyJunit].filter(Boolean).join(', ');
  report(`toolrun: ${parts.join('; ')} (verdict: ${verdict}, JUnit: ${junits})`, verdict !== 'pass');
  process.exitCode = [conform, diff, tests, lint, verify].find((code) => code !== undefined && code !== 0) ?? 0;
}

function readInputs() {
  const server = oneLineInput('server', env.TOOLRUN_ACTION_SERVER);
  // Test files or folders, one per line (or separated by spaces), for toolrun test.
  const tests = (env.TOOLRUN_ACTION_TESTS ?? '')
    .split(/\r?\n/)
    .flatMap((line) => (line.trim().startsWith('#') ? [] : line.trim().split(/\s+/)))
    .filter(Boolean);
  const snapshot = oneLineInput('snapshot', env.TOOLRUN_ACTION_SNAPSHOT);
  const lint = oneLineInput('lint', env.TOOLRUN_ACTION_LINT).replace(/\s+/g, '');
  // server.json files, .mcpb bundles or folders holding them, one per line, for toolrun mcp verify.
  const verify = (env.TOOLRUN_ACTION_VERIFY ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const verifyLaunch = oneLineInput('verify-launch', env.TOOLRUN_ACTION_VERIFY_LAUNCH).toLowerCase();
  if (!['', 'true', 'false'].includes(verifyLaunch)) usage(`the \`verify-launch\` input must be true or false, not "${env.TOOLRUN_ACTION_VERIFY_LAUNCH}"`);
  if (!server && tests.length === 0 && !(lint && snapshot) && verify.length === 0)
    usage('the `server` input (a server name of your config, a URL, or a command), the `tests` input (test files) or the `verify` input (server.json or .mcpb files) is required');
  if (lint && !server && !snapshot) usage('the `lint` input lints the `snapshot` file or the `server`: give one of them');
  if (lint && !/^[\w@.,-]+$/.test(lint)) usage(`the \`lint\` input takes targets such as openai,gemini or all, not "${lint}"`);
  const lintMaxTokens = oneLineInput('lint-max-tokens', env.TOOLRUN_ACTION_LINT_MAX_TOKENS);
  if (lintMaxTokens && !/^[1-9]\d*$/.test(lintMaxTokens)) usage(`the \`lint-max-tokens\` input must be a positive whole number, not "${lintMaxTokens}"`);
  const callAll = oneLineInput('call-all', env.TOOLRUN_ACTION_CALL_ALL).toLowerCase();
  if (!['', 'true', 'false'].includes(callAll)) usage(`the \`call-all\` input must be true or false, not "${env.TOOLRUN_ACTION_CALL_ALL}"`);
  // One call per line, `TOOL ARGS` as toolrun's --call takes it; blank lines and # comments skipped.
  const calls = (env.TOOLRUN_ACTION_CALLS ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (calls.some((call) => /[\r\u2028\u2029]/.test(call))) usage('each line of the `calls` input must be one line (it holds a carriage return)');
  return {
    server,
    config: oneLineInput('config', env.TOOLRUN_ACTION_CONFIG),
    profile: oneLineInput('profile', env.TOOLRUN_ACTION_PROFILE) || 'toolrun@1',
    junit: oneLineInput('junit', env.TOOLRUN_ACTION_JUNIT) || 'toolrun-conform.xml',
    snapshot,
    lint,
    lintMaxTokens,
    lintSarif: oneLineInput('lint-sarif', env.TOOLRUN_ACTION_LINT_SARIF) || 'toolrun-lint.sarif',
    callAll: callAll === 'true',
    calls,
    tests,
    testsJunit: oneLineInput('tests-junit', env.TOOLRUN_ACTION_TESTS_JUNIT) || 'toolrun-tests.xml',
    verify,
    verifyLaunch: verifyLaunch === 'true',
    verifyJunit: oneLineInput('verify-junit', env.TOOLRUN_ACTION_VERIFY_JUNIT) || 'toolrun-verify.xml',
  };
}

/**
 * An input that is one value, trimmed. A line break inside it is refused: the value is echoed in the
 * step's log (the ::group:: line of each run, the verdict), where its second line would stand alone
 * and could be a workflow command (`::stop-commands::`, a forged `::error`).
 */
function oneLineInput(name, raw) {
  const value = (raw ?? '').trim();
  if (/[\r\n\u2028\u2029]/.test(value)) usage(`the \`${name}\` input must be one line (it holds a line break)`);
  return value;
}

/**
 * The command that runs toolrun: TOOLRUN_ACTION_BIN when set (a toolrun the job installed itself, such
 * as its project's node_modules/toolrun/bin/toolrun.js, or a test's stand-in), else this action's own
 * checkout: the toolrun of the ref in `uses: OWNER/toolrun@REF`. toolrun is not on the npm registry, so
 * the checkout is built on the runner the first time, as an install from its git URL would build it:
 * `npm ci` there installs its build tools and runs its `prepare` (the build). A checkout already built
 * (dist/.build-inputs, written last by a complete build) is used as it is.
 */
function resolveToolrun() {
  if (env.TOOLRUN_ACTION_BIN) return commandFor(env.TOOLRUN_ACTION_BIN);
  const bin = join(ACTION_ROOT, 'bin', 'toolrun.js');
  const built = () => existsSync(join(ACTION_ROOT, 'dist', '.build-inputs')) && existsSync(bin);
  if (!built()) {
    const npm = env.TOOLRUN_ACTION_NPM ? commandFor(env.TOOLRUN_ACTION_NPM) : { file: process.platform === 'win32' ? 'npm.cmd' : 'npm', args: [] };
    // npm's output goes to stderr: the step's stdout stays toolrun's own.
    const code = run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: ACTION_ROOT, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' }, 'npm');
    if (code !== 0 || !built()) fail(`could not build toolrun in the action's checkout ${ACTION_ROOT} (npm ci exit ${code})`, 3);
  }
  return commandFor(bin);
}

/** A .js/.mjs file runs under this Node (no shebang or execute bit needed, Windows included). */
function commandFor(path) {
  return /\.[cm]?js$/.test(path) ? { file: process.execPath, args: [path] } : { file: path, args: [] };
}

function run(command, args, options = {}, name = 'toolrun') {
  console.error(`::group::${name} ${args.map(quoteForLog).join(' ')}`);
  const result = spawnSync(command.file, [...command.args, ...args], { stdio: 'inherit', ...options });
  console.error('::endgroup::');
  if (result.error) {
    console.error(`toolrun action: could not start ${command.file}: ${result.error.message}`);
    return 127;
  }
  return result.status ?? 128 + 1;
}

function verdictOf(results) {
  const codes = results.filter((code) => code !== undefined);
  if (codes.includes(4)) return 'unreachable';
  if (codes.every((code) => code === 0)) return 'pass';
  if (codes.every((code) => code === 0 || code === 1)) return 'fail';
  return 'error';
}

function describe(code) {
  return `${MEANING[code] ?? 'ended'} (exit ${code})`;
}

/** Step outputs in the delimited form, so no value (a path with a newline) can forge another output. */
function writeOutputs(outputs) {
  if (!env.GITHUB_OUTPUT) return;
  const delimiter = `toolrun_${Math.random().toString(36).slice(2)}`;
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
      .join(''),
  );
}

function quoteForLog(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Progress and verdicts go to stderr: the step's stdout stays toolrun's own. */
function report(message, isError) {
  console.error(isError ? `::error title=toolrun::${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}` : message);
}

function usage(message) {
  fail(message, 2);
}

function fail(message, code) {
  report(`toolrun action: ${message}`, true);
  process.exit(code);
}

main();
