import { InvalidArgumentError, type Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { parsePositiveInteger } from '../cli-support/parse-number-option.js';
import type { EvalOptions } from './support/eval-run.js';

export function registerEvalCommand(program: Command, run: CommandRunner): void {
  program
    .command('eval')
    .description('does a model use the tools right: eval files (*.eval.yaml) run against models, scored by pass rate')
    .argument('[paths...]', 'eval files, or folders to search for *.eval.yaml|yml|json (default: the current folder)')
    .option('--model <provider:model>', 'a model to ask, PROVIDER:MODEL with openai, anthropic, google or compatible (repeatable, a matrix)', collect)
    .option('--as <host>', 'present the tools as this host does (names, limits, schema), one of vscode, cursor, gemini-cli, codex, windsurf, openai, anthropic, gemini')
    .option('--base-url <url>', "the OpenAI-compatible endpoint of compatible models (Ollama's http://localhost:11434/v1, llama.cpp, vLLM)")
    .option('--api-key-env <var>', 'the environment variable holding the key of the compatible endpoint (none by default)')
    .option('--server <name>', "give every case this server's tools (overrides the files' server:)")
    .option('--replay', 'answer every model request from the cassettes in __cassettes__ beside the file, with no network (the default when CI is set)')
    .option('--record', "ask the models and keep their answers as the new cassettes (removing the ones the file's run no longer uses)")
    .option('--live', 'ask the models without reading or writing cassettes, even when CI is set')
    .option('--min-pass-rate <rate>', 'the pass rate (0..1) each case must reach for exit 0', parseRate, 1)
    .option('--jobs <n>', 'cases × models asked at once, at most N (only for tools that keep no state: side by side, their calls interleave differently each run)', parsePositiveInteger, 1)
    .option('--junit <file>', 'also write a JUnit XML report (a testsuite per model)')
    .option('--html <file>', "also write the report as a self-contained HTML page (each run's turns and calls)")
    .addHelpText(
      'after',
      `
An eval file (YAML or JSON; schema: node_modules/toolrun/schemas/toolrun-eval.schema.json):
  server: weather                 # the MCP server whose tools the model gets (default: the local tools)
  cases:
    - name: picks the forecast
      prompt: What will the weather be in Paris tomorrow?
      runs: 5                     # a pass rate over 5 runs
      expect:
        calls: [{ tool: get_forecast, args: { city: Paris, days: { gte: 1 } } }]
        order: any                # or exact: these calls, in this order
        forbid: [delete_city]
        maxTurns: 3               # model requests before it must answer
        answer: { matches: "[Pp]aris" }

args and answer take toolrun test's matchers (a value, or {equals, contains, matches, type, length,
gte, lte}); an argument left out is not checked; a plain answer text is one the answer contains.
Keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY;
a hosted provider's endpoint moves (a proxy) with OPENAI_BASE_URL, ANTHROPIC_BASE_URL or
GOOGLE_GENERATIVE_AI_BASE_URL (--base-url is for compatible: models).

Examples:
  $ toolrun eval --model openai:gpt-4.1-mini                         # every *.eval.yaml here
  $ toolrun eval evals/ --model openai:gpt-4.1-mini --model anthropic:claude-sonnet-4-5 --as vscode
  $ toolrun eval --model compatible:llama3.2 --base-url http://localhost:11434/v1 --record
  $ CI=1 toolrun eval --model openai:gpt-4.1-mini --min-pass-rate 0.8 --junit eval.xml

Exit: 0 every case reached the pass rate · 1 one did not · 2 usage · 3 a bad eval file or config ·
4 a server or the model unreachable`,
    )
    .action((paths: string[], options: EvalOptions) => run(async (cli) => (await import('./support/eval-run.js')).runEval(cli, paths, options)));
}

/** No default list is given to commander: its help would print `(default: [])`; the first call gets undefined. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new InvalidArgumentError(`takes a rate from 0 to 1 (0.8 is 80% of the runs), not '${value}'.`);
  return rate;
}
