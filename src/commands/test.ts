import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError, ExitCode, UsageError } from '../errors.js';
import type { CliContext, CommandRunner } from '../cli-support/cli-context.js';
import { parsePositiveInteger } from '../cli-support/parse-number-option.js';

interface TestOptions {
  server?: string;
  filter?: string;
  bail?: boolean;
  allowOnly?: boolean;
  jobs: number;
  shard?: { index: number; count: number };
  update?: boolean;
  watch?: boolean;
  junit?: string;
  html?: string;
  from?: string;
  output?: string;
  /** Absent when no --env was given. */
  env?: string[];
}

export function registerTestCommand(program: Command, run: CommandRunner): void {
  program
    .command('test')
    .description('run test files (*.toolrun.yaml) against MCP servers and tools: calls, reads and prompts with expectations, for CI')
    .argument('[paths...]', 'test files, or folders to search for *.toolrun.yaml|yml|json (default: the current folder)')
    .option('--server <name>', "run every step on this server (overrides the files' server:)")
    .option('--env <name>', 'let ${NAME} in the test files read this environment variable (repeatable; a file allows its own with env: [NAME])', collectEnvName)
    .option('--filter <pattern>', 'only the tests whose name contains PATTERN (or matches /REGEX/)')
    .option('--bail', 'stop at the first failing test (the rest are reported skipped)')
    .option('--allow-only', 'allow tests marked "only" when CI is set (refused there otherwise: a leftover only: true skips the rest)')
    .option('--jobs <n>', 'test files of different servers run at once, at most N', parsePositiveInteger, 4)
    .option('--shard <i/n>', 'run part I of N, split by file (stable: the N parts are the whole suite, no file twice)', parseShard)
    .option('--update', 'write the snapshots of this run (new ones, and those that differ)')
    .option('--watch', 'run again when a test file or the config changes (Ctrl-C ends)')
    .option('--junit <file>', 'also write a JUnit XML report (one testsuite per file)')
    .option('--html <file>', 'also write the report as a self-contained HTML page')
    .option('--from <recording>', 'make a test file from a recording (--record, mcp tap --record): a test per call, the answers as snapshots; needs -o')
    .option('-o, --output <file>', 'with --from: the test file to write (its snapshots go to __snapshots__/ beside it)')
    .addHelpText(
      'after',
      `
A test file (YAML or JSON; schema: node_modules/toolrun/schemas/toolrun-test.schema.json):
  server: everything
  tests:
    - name: echo says hello
      call: echo                  # or SERVER:TOOL · read: URI · get: PROMPT · list: tools|resources|prompts
      args: { message: hi }       # typed as exec's ARGS; \${NAME} is a saved value, or a variable env: [NAME] or --env NAME allows
      expect: { text: "Echo: hi", latencyMs: { max: 500 } }
    - name: sum
      call: get-sum
      args: { a: 2, b: 3 }
      expect: { path: { "$.content[0].text": { contains: "5" } } }
      save: { sum: "$.content[0].text" }

Matchers: text, contains, matches, json, schema, path (JSONPath → value or {equals, contains, matches,
type, length, gte, lte}), error (true, text, or {code, message}), snapshot, latencyMs: {max},
notifications: {progress: {min, monotonic}}. Steps: skip, only, timeout (ms), save, ignore (JSONPaths
left out of the snapshot), validate: false (send the call as written: the server's own answer to bad
input); setup: and teardown: lists run before and after a file's tests.

Examples:
  $ toolrun test                                   # every *.toolrun.yaml under the current folder
  $ toolrun test tests/smoke.toolrun.yaml --junit report.xml
  $ toolrun test --shard 2/4 --junit shard-2.xml   # one of four CI jobs
  $ toolrun test --from session.rec -o smoke.toolrun.yaml && toolrun test smoke.toolrun.yaml
  $ toolrun test --update                          # accept the answers of today's server as the snapshots

Snapshots live in __snapshots__/NAME.snap.json beside the file: a missing one is written (and fails
when CI is set). Exit: 0 all passed · 1 a test failed · 2 usage · 3 a bad test file or config · 4 a server
unreachable · 130 interrupted`,
    )
    .action((paths: string[], options: TestOptions) =>
      run(async (cli) => {
        if (options.from !== undefined) return (await import('./support/test-from-recording.js')).generateFromRecording(cli, options);
        if (options.output !== undefined) throw new UsageError('-o names the test file --from writes; to save a report use --junit FILE, --html FILE or --json');
        if (options.filter?.startsWith('/')) checkRegexFilter(options.filter);
        if (options.junit !== undefined || options.html !== undefined) {
          // A report toolrun may not write there (another user's folder, a link) is exit 2 before any server starts.
          const { resolveWritablePath } = await import('../cli-support/output-file-path.js');
          if (options.junit !== undefined) resolveWritablePath(cli.cwd, '--junit', options.junit);
          if (options.html !== undefined) resolveWritablePath(cli.cwd, '--html', options.html);
        }
        if (!options.watch) return runOnce(cli, paths, options);
        return watchAndRun(cli, paths, options);
      }),
    );
}

/** A test file larger than this is a mistake (a recording, a data file), not a suite to parse. */
const MAX_TEST_FILE_BYTES = 16 << 20;

function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new InvalidArgumentError(`takes I/N with 1 ≤ I ≤ N (2/4 is the second of four parts), not '${value}'.`);
  return { index, count };
}

/** No default list is given to commander: its help would print `(default: [])`; the first call gets undefined. */
function collectEnvName(value: string, previous: string[] | undefined): string[] {
  if (!/^[A-Za-z_][\w-]*$/.test(value)) throw new InvalidArgumentError(`takes an environment variable's name (GITHUB_TOKEN), not '${value}'.`);
  return [...(previous ?? []), value];
}

function checkRegexFilter(filter: string): void {
  const regex = /^\/(.+)\/([a-z]*)$/.exec(filter);
  if (!regex) return;
  try {
    new RegExp(regex[1]!, regex[2]);
  } catch (error) {
    throw new UsageError(`--filter ${filter}: not a regular expression (${(error as Error).message}); a plain word matches test names containing it`);
  }
}

/** Reads and checks every test file before any server starts: a bad one is exit 3, naming its place. */
async function loadSuite(cli: CliContext, paths: string[], options: TestOptions) {
  const [{ readFileSync, statSync }, { relative }, { findTestFiles }, { readTestFile }, { loadCliConfig }] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('../testing/find-test-files.js'),
    import('../testing/read-test-file.js'),
    import('../cli-support/load-cli-config.js'),
  ]);
  const files = findTestFiles(paths, cli.cwd).map((path) => {
    let text: string;
    try {
      if (statSync(path).size > MAX_TEST_FILE_BYTES) throw new UsageError(`${path} is over ${MAX_TEST_FILE_BYTES >> 20} MB: not a test file (split a suite into files, or a folder of them)`);
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const file = readTestFile(path, text, cli.env, relative(cli.cwd, path) || path, options.env ?? []);
    if (!options.server) return file;
    // --server replaces the file's server (a step naming SERVER:TOOL or its own server: keeps it).
    const retarget = (step: (typeof file.tests)[number]) => (step.server === file.server ? { ...step, server: options.server, serverPlace: undefined } : step);
    return { ...file, server: options.server, tests: file.tests.map(retarget), setup: file.setup.map(retarget), teardown: file.teardown.map(retarget) };
  });
  if (isCi(cli.env) && !options.allowOnly) refuseLeftoverOnly(files, (path) => relative(cli.cwd, path) || path);
  const config = await loadCliConfig(cli);
  for (const file of files)
    for (const step of [...file.setup, ...file.tests, ...file.teardown])
      if (step.server !== undefined && !config.servers[step.server]) {
        const configured = Object.keys(config.servers);
        // Pointed at the line that names the server (--server's name has no line: the step's).
        const place = step.serverPlace ?? step.place;
        throw new ConfigError(
          `${relative(cli.cwd, file.path) || file.path}:${place.line}:${place.column}: MCP server '${step.server}' is not configured (${configured.length > 0 ? `configured: ${configured.join(', ')}` : `no MCP servers in ${config.path ?? 'the config (pass --config or --host)'}`}); name one in the file, or run with --server NAME`,
          { file: file.path },
        );
      }
  return { files, config };
}

async function runOnce(cli: CliContext, paths: string[], options: TestOptions, opened?: Awaited<ReturnType<typeof openForTests>>): Promise<number> {
  const { files, config } = await loadSuite(cli, paths, options);
  const tools = opened ?? (await openForTests(cli, config, files));
  const [{ runTestSuite, runSideBySide, shardFiles }, report] = await Promise.all([import('../testing/run-test-suite.js'), import('../output/format-test-report.js')]);
  const startedAt = new Date();
  const started = performance.now();
  const live = !cli.globals.json;
  const lineOptions = runSideBySide(files, options.jobs) ? { cwd: cli.cwd } : {};
  const results = await runTestSuite(files, tools.runner, {
    filter: options.filter,
    bail: options.bail === true,
    jobs: options.jobs,
    shard: options.shard,
    root: cli.cwd,
    snapshotMode: options.update ? 'update' : isCi(cli.env) ? 'ci' : 'write',
    env: cli.env,
    signal: cli.signal,
    onResult: live
      ? (result) => {
          const lines = [report.formatTestLine(result, cli.terminal.outStyle, lineOptions)];
          if (result.status === 'fail') lines.push(...report.formatFailureDetails(result, cli.cwd));
          void cli.terminal.result(lines.join('\n'));
        }
      : undefined,
  });
  const wallMs = performance.now() - started;
  // A shard with no file is a matrix wider than the suite: nothing to run is its success (its reports are written, empty).
  const emptyShard = options.shard !== undefined && shardFiles(files, options.shard, cli.cwd).size === 0;
  if (emptyShard)
    cli.terminal.note(
      `shard ${options.shard!.index}/${options.shard!.count} holds no test file: ${files.length} file${files.length === 1 ? '' : 's'} split ${options.shard!.count} ways (shards split by file)`,
    );
  if (results.length === 0 && !cli.signal.aborted && !emptyShard)
    throw new UsageError(`no test ${options.filter ? `matches --filter ${options.filter}` : options.shard ? `falls in shard ${options.shard.index}/${options.shard.count}` : 'to run'}`);
  // Written even when interrupted: the tests that ran are CI's evidence.
  if (options.junit) await writeReport(cli, '--junit', options.junit, report.formatTestJunit(results, cli.cwd, { startedAt, hostname: cli.env.HOSTNAME }));
  if (options.html) {
    const { renderTestHtml } = await import('../output/html/render-test-html.js');
    await writeReport(cli, '--html', options.html, renderTestHtml(results, cli.cwd, { startedAt, wallMs }));
  }
  if (cli.env.GITHUB_ACTIONS === 'true') for (const line of report.testAnnotations(results, cli.cwd)) cli.terminal.workflowCommand(line);
  if (cli.globals.json) await cli.terminal.resultJson(report.testReportJson(results, wallMs, cli.cwd));
  else await cli.terminal.result(report.formatTestSummary(results, wallMs, cli.terminal.outStyle));
  if (tools.unreachable.size > 0) return ExitCode.UNREACHABLE;
  return results.some((result) => result.status === 'fail') ? ExitCode.FAILURE : ExitCode.OK;
}

/** The registry the steps run on (servers started once per run, or held by a session holder), and which servers could not be reached. */
async function openForTests(cli: CliContext, config: Awaited<ReturnType<typeof loadSuite>>['config'], files: Awaited<ReturnType<typeof loadSuite>>['files']) {
  const [{ openTools }, { resolveTool }, { createStepRunner }, { createStepAskBack }, { askBackFor }] = await Promise.all([
    import('./support/open-tools.js'),
    import('./support/resolve-tool.js'),
    import('../testing/step-runner.js'),
    import('../testing/test-ask-back.js'),
    import('../cli-support/ask-back-for.js'),
  ]);
  const steps = files.flatMap((file) => [...file.setup, ...file.tests, ...file.teardown]);
  const stepAsks = createStepAskBack(askBackFor(cli, config), { sampling: steps.some((step) => step.asks?.sampling), roots: steps.some((step) => step.asks?.roots) });
  // A step with its own answers needs the servers here: a session holder's servers ask the flags of the command that started them.
  const useSession = !steps.some((step) => step.asks);
  const opened = await openTools(cli, { config, useSession, askBack: stepAsks.askBack, onToolReplaced: () => {} });
  const unreachable = new Set<string>();
  const tools = {
    config: opened.config,
    registry: opened.registry,
    executor: opened.executor,
    connect: (names: string[]) => opened.connect(names),
    resolve: (name: string, server: string | undefined) => resolveTool(opened, name, server),
    timeoutMs: cli.globals.timeout,
  };
  const runner = createStepRunner(tools, (server) => unreachable.add(server), stepAsks.during);
  return { runner, unreachable };
}

async function watchAndRun(cli: CliContext, paths: string[], options: TestOptions): Promise<number> {
  const [{ watch }, { findTestFiles }] = await Promise.all([import('node:fs'), import('../testing/find-test-files.js')]);
  const { config, files } = await loadSuite(cli, paths, options);
  const tools = await openForTests(cli, config, files);
  let code: number = ExitCode.OK;
  while (!cli.signal.aborted) {
    try {
      code = await runOnce(cli, paths, options, tools);
    } catch (error) {
      // A file saved half-written is a bad file for a moment: said, and the watch goes on.
      cli.terminal.error(`✖ ${(error as Error).message}`);
      code = ExitCode.CONFIG;
    }
    const watched = [...new Set([...safeFind(findTestFiles, paths, cli.cwd), ...(config.path ? [config.path] : [])])];
    await new Promise<void>((resolve) => {
      // A file removed while watched ends its watcher with an error: that too is a change to run again for.
      const watchers = watched.map((path) => watch(path, () => finish()).on('error', () => finish()));
      // Said once the watchers are in place: a save right after reading this line is seen.
      cli.terminal.info(`watching ${watched.length} file${watched.length === 1 ? '' : 's'} for changes; Ctrl-C ends`);
      const onAbort = () => finish();
      let timer: NodeJS.Timeout | undefined;
      function finish() {
        // An editor's save is several events: one run for all of them.
        clearTimeout(timer);
        timer = setTimeout(() => {
          for (const watcher of watchers) watcher.close();
          cli.signal.removeEventListener('abort', onAbort);
          resolve();
        }, 150);
      }
      cli.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  return code;
}

function safeFind(find: (paths: string[], cwd: string) => string[], paths: string[], cwd: string): string[] {
  try {
    return find(paths, cwd);
  } catch {
    return [];
  }
}

/**
 * A test marked \`only: true\` left in a file would, in CI, pass the run while skipping every other
 * test: refused there, as vitest refuses \`.only\` unless --allowOnly (its default: \`!process.env.CI\`;
 * @vitest/runner interpretTaskModes, "Unexpected .only modifier").
 */
function refuseLeftoverOnly(files: Array<{ path: string; tests: Array<{ name: string; only: boolean; place: { line: number; column: number } }> }>, shown: (path: string) => string): void {
  const marked = files.flatMap((file) => file.tests.filter((test) => test.only).map((test) => ({ file, test })));
  if (marked.length === 0) return;
  const { file, test } = marked[0]!;
  const others = marked.length > 1 ? ` (and ${marked.length - 1} more)` : '';
  throw new ConfigError(
    `${shown(file.path)}:${test.place.line}:${test.place.column}: test '${test.name}' is marked only: true${others} and CI is set: the other tests would be skipped; remove only:, or pass --allow-only`,
    { file: file.path },
  );
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

async function writeReport(cli: CliContext, flag: string, path: string, content: string): Promise<void> {
  const [{ resolveOutputPath }, { writeOutputFile }] = await Promise.all([import('../cli-support/output-file-path.js'), import('../cli-support/write-output-file.js')]);
  await writeOutputFile(resolveOutputPath(cli.cwd, flag, path), Buffer.from(content));
}
