import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { CliContext } from '../../cli-support/cli-context.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { ConfigError, ExitCode, UsageError } from '../../errors.js';
import { cassetteFetch } from '../../eval/cassette/cassette-fetch.js';
import { createModel } from '../../eval/create-model.js';
import type { EvalFile } from '../../eval/eval-file-types.js';
import { findEvalFiles } from '../../eval/find-eval-files.js';
import type { ModelFetchOptions } from '../../eval/model-fetch.js';
import { apiKeyFor, BASE_URL_VARIABLES, baseUrlFor, checkHttpUrl, parseModelSpec } from '../../eval/model-spec.js';
import { presentationHosts, presentTools } from '../../eval/present-tools.js';
import { readEvalFile } from '../../eval/read-eval-file.js';
import { runEvalSuite } from '../../eval/run-eval-suite.js';
import { evalReportJson, formatEvalJunit, formatEvalLine, formatEvalSummary } from '../../output/format-eval-report.js';
import { maskSecretsDeep, rememberSecret } from '../../secrets/mask-secrets.js';
import { openTools } from './open-tools.js';

/** `toolrun eval`'s options, as commander gives them. */
export interface EvalOptions {
  /** Absent when no --model was given. */
  model?: string[];
  as?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  server?: string;
  replay?: boolean;
  record?: boolean;
  live?: boolean;
  minPassRate: number;
  jobs: number;
  junit?: string;
  html?: string;
}

/** An eval file larger than this is a mistake (a recording, a data file), not a suite. */
const MAX_EVAL_FILE_BYTES = 16 << 20;

/** `toolrun eval`: read every file (exit 3 before anything starts), check the models and keys (exit 2), open the tools, run, report. */
export async function runEval(cli: CliContext, paths: string[], options: EvalOptions): Promise<number> {
  const models = options.model ?? [];
  if (models.length === 0) throw new UsageError('name a model to ask: --model openai:gpt-4.1-mini (repeatable: a matrix)');
  if (options.as !== undefined && !presentationHosts().includes(options.as))
    throw new UsageError(`--as ${options.as}: not a host toolrun presents tools as; use one of ${presentationHosts().join(', ')}`);
  if ([options.replay, options.record, options.live].filter(Boolean).length > 1) throw new UsageError('--replay, --record and --live each choose where model answers come from: give one');
  const mode: ModelFetchOptions['mode'] = options.record ? 'record' : options.live ? 'live' : options.replay || isCi(cli.env) ? 'replay' : 'live';
  const specs = models.map(parseModelSpec);
  const repeated = specs.find((spec, index) => specs.findIndex((other) => other.label === spec.label) !== index);
  if (repeated) throw new UsageError(`--model ${repeated.label} is given twice; name each model once (runs: N in the eval file repeats a case)`);
  if (options.baseUrl === undefined && specs.some((spec) => spec.provider === 'compatible'))
    throw new UsageError(`--model ${specs.find((spec) => spec.provider === 'compatible')!.label} needs --base-url URL (the endpoint's OpenAI-compatible API, e.g. http://localhost:11434/v1)`);
  if (options.baseUrl !== undefined) {
    if (!specs.some((spec) => spec.provider === 'compatible'))
      throw new UsageError(
        `--base-url is the endpoint of compatible: models, and no --model is one; a hosted provider's endpoint is moved with ${Object.values(BASE_URL_VARIABLES).join(', ')} in the environment`,
      );
    checkHttpUrl(options.baseUrl, '--base-url');
  }
  const baseUrls = specs.map((spec) => baseUrlFor(spec, cli.env, options.baseUrl));
  if (options.apiKeyEnv !== undefined && !/^[A-Za-z_]\w*$/.test(options.apiKeyEnv)) throw new UsageError(`--api-key-env takes an environment variable's name (OLLAMA_KEY), not '${options.apiKeyEnv}'`);
  if (options.junit !== undefined || options.html !== undefined) {
    const { resolveWritablePath } = await import('../../cli-support/output-file-path.js');
    if (options.junit !== undefined) resolveWritablePath(cli.cwd, '--junit', options.junit);
    if (options.html !== undefined) resolveWritablePath(cli.cwd, '--html', options.html);
  }
  const files = findEvalFiles(paths, cli.cwd).map((path) => readOne(cli, path, options.server));
  // A replay never sends a request, so it needs no key; live and record read each key now, before any model is asked.
  const keys = specs.map((spec) => (mode === 'replay' ? undefined : apiKeyFor(spec, cli.env, options.apiKeyEnv)));
  for (const key of keys) if (key) rememberSecret(key);
  const config = await loadCliConfig(cli);
  for (const file of files)
    if (file.server !== undefined && !config.servers[file.server])
      throw new ConfigError(
        `${shown(cli, file.path)}: MCP server '${file.server}' is not configured (${Object.keys(config.servers).join(', ') || `no MCP servers in ${config.path ?? 'the config'}`}); name one in server:, or run with --server NAME`,
        { file: file.path },
      );
  const opened = await openTools(cli, { config, useSession: false, onToolReplaced: () => {} });
  const unreachableServers = new Set<string>();
  // One start per server, however many files name it (files are run side by side with --jobs).
  const connecting = new Map<string, Promise<void>>();
  const toolsFor = async (file: EvalFile) => {
    const server = file.server;
    if (server !== undefined) {
      if (!connecting.has(server))
        connecting.set(
          server,
          opened.connect([server]).then((failures) => {
            if (failures.length > 0) unreachableServers.add(server);
          }),
        );
      await connecting.get(server);
    }
    const tools = opened.registry.list().filter((tool) => tool.server === file.server);
    return presentTools(tools, options.as, file.server);
  };
  const started = performance.now();
  const startedAt = new Date();
  const results = await runEvalSuite(files, {
    models: specs.map((spec, index) => ({
      label: spec.label,
      // What else decides the requests a recording makes: the host the tools are shown as, and the server they come from.
      profile: [spec.label, ...(options.as === undefined ? [] : [`--as ${options.as}`]), ...(options.server === undefined ? [] : [`--server ${options.server}`])].join(' '),
      modelFor: (fetchOptions) => {
        const baseUrl = baseUrls[index];
        return createModel(spec, { apiKey: keys[index], ...(baseUrl ? { baseUrl } : {}), fetch: cassetteFetch({ ...fetchOptions, ...(baseUrl ? { baseUrl } : {}) }) });
      },
    })),
    toolsFor,
    executor: opened.executor,
    mode,
    minPassRate: options.minPassRate,
    jobs: options.jobs,
    signal: cli.signal,
    // A folder per eval file: two files beside each other may have a case of the same name.
    cassetteFolder: (file) => join(dirname(file.path), '__cassettes__', basename(file.path)),
    onPruned: (paths) => cli.terminal.info(`removed ${paths.length} cassette${paths.length === 1 ? '' : 's'} this recording no longer uses (${shown(cli, dirname(dirname(paths[0]!)))})`),
    onResult: cli.globals.json ? undefined : (result) => void cli.terminal.result(formatEvalLine(result, cli.terminal.outStyle)),
  });
  const wallMs = performance.now() - started;
  if (options.junit) await writeReport(cli, '--junit', options.junit, formatEvalJunit(results, cli.cwd, { startedAt, hostname: cli.env.HOSTNAME }));
  if (options.html) {
    const { renderEvalHtml } = await import('../../output/html/render-eval-html.js');
    await writeReport(cli, '--html', options.html, renderEvalHtml(results, cli.cwd, { startedAt, wallMs, minPassRate: options.minPassRate }));
  }
  if (cli.globals.json) await cli.terminal.resultJson(maskSecretsDeep(evalReportJson(results, options.minPassRate, wallMs, cli.cwd)));
  else await cli.terminal.result(formatEvalSummary(results, options.minPassRate, wallMs, cli.terminal.outStyle));
  if (cli.signal.aborted) return ExitCode.INTERRUPTED;
  if (unreachableServers.size > 0 || results.some((result) => result.runs.some((each) => each.unreachable))) return ExitCode.UNREACHABLE;
  return results.every((result) => result.met) ? ExitCode.OK : ExitCode.FAILURE;
}

function readOne(cli: CliContext, path: string, server: string | undefined): EvalFile {
  let text: string;
  try {
    if (statSync(path).size > MAX_EVAL_FILE_BYTES) throw new UsageError(`${path} is over ${MAX_EVAL_FILE_BYTES >> 20} MB: not an eval file (split the cases into files)`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const file = readEvalFile(path, text, shown(cli, path));
  return server === undefined ? file : { ...file, server };
}

function shown(cli: CliContext, path: string): string {
  return relative(cli.cwd, path) || path;
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

async function writeReport(cli: CliContext, flag: string, path: string, content: string): Promise<void> {
  const [{ resolveOutputPath }, { writeOutputFile }] = await Promise.all([import('../../cli-support/output-file-path.js'), import('../../cli-support/write-output-file.js')]);
  await writeOutputFile(resolveOutputPath(cli.cwd, flag, path), Buffer.from(content));
}
