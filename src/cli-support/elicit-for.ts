import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { parseArgWords } from '../args/parse-tool-args.js';
import { parseAnswersFile } from '../elicit/answers-file.js';
import { readElicitationUrl, type ElicitationUrl } from '../elicit/elicitation-url.js';
import { answerScripted, type ScriptedAnswers } from '../elicit/scripted-answer.js';
import { ToolrunError, UsageError } from '../errors.js';
import type { AskBack, AskContext, ElicitParams } from '../mcp/ask-back.js';
import { escapeControls } from '../output/escape-controls.js';
import type { CliContext } from './cli-context.js';
import { openBrowser } from './open-browser.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/**
 * Elicitations one command answers at most. A server that asks more is taken for one asking in a
 * loop (re-asking after every decline, say): it gets `cancel` and the command ends with exit 1.
 * 20 is far above any real form wizard (a handful of rounds) and ends a runaway in well under a second.
 */
export const MAX_ELICITATIONS_PER_COMMAND = 20;

/** An answers file larger than this is not a script of answers. */
const ANSWERS_FILE_LIMIT_BYTES = 1024 * 1024;

type ElicitContext = Pick<CliContext, 'globals' | 'terminal' | 'env' | 'cwd'> & Partial<Pick<CliContext, 'signal' | 'endCommand'>>;

/**
 * How one command answers elicitations (SPEC §15): from `--answers FILE`, `--elicit` and `--answer`
 * when given; else, when stdin and stderr are a terminal, the person is asked; else declined, with
 * a line saying how to answer. The flags are read here, before any server starts: a malformed
 * `--answer` or answers file is a usage error at once.
 */
export function elicitFor(cli: ElicitContext, tty = isatty(0) && isatty(2)): NonNullable<AskBack['elicit']> {
  // One per command (its flags), whichever of its connections asks: the rounds and the bound count across all.
  const made = madeFor.get(cli.globals.askBack);
  if (made) return made;
  const answers = scriptedAnswersOf(cli);
  let turn = 0;
  const elicit: NonNullable<AskBack['elicit']> = async (params, context) => {
    const current = turn++;
    if (current >= MAX_ELICITATIONS_PER_COMMAND) {
      return stop(
        cli,
        new ToolrunError('tool_error', `server '${context.server}' asked for input more than ${MAX_ELICITATIONS_PER_COMMAND} times in one command (an elicitation loop?); answered cancel and stopped`),
      );
    }
    const url = urlOf(params);
    if (url) cli.terminal.error(`server '${context.server}' asks you to open a URL: ${quoted(params.message)}\n  ${escapeControls(url.shown)}`);
    if (url && 'problem' in url) {
      cli.terminal.warn(`server '${context.server}' asked to open a URL toolrun does not open (${url.problem}); declined`);
      return { action: 'decline' };
    }
    const scripted = answerScripted(params, answers, current);
    if (scripted.kind === 'answered') return scripted.result;
    if (scripted.kind === 'unfit') {
      return stop(
        cli,
        new UsageError(
          `${scripted.source} does not fit what server '${context.server}' asked for (${quoted(params.message)}): ${scripted.problem}; the fields asked for: ${escapeControls(scripted.fields)}${scripted.source.startsWith('--answers') ? '' : ' (give each with --answer field=value)'}`,
        ),
      );
    }
    if (tty) return askPerson(cli, params, context, url);
    cli.terminal.warn(
      `server '${context.server}' asked for input (${quoted(params.message)}); declined: no terminal and no answers given. Answer with --answer field=value, --answers FILE or --elicit accept|decline|cancel`,
    );
    return { action: 'decline' };
  };
  madeFor.set(cli.globals.askBack, elicit);
  return elicit;
}

const madeFor = new WeakMap<object, NonNullable<AskBack['elicit']>>();

async function askPerson(cli: ElicitContext, params: ElicitParams, context: AskContext, url: Extract<ElicitationUrl, { href: string }> | undefined): Promise<ElicitResult> {
  // Loaded here: only a terminal with nothing scripted asks (node:readline and the prompt).
  const { promptForm, promptUrl } = await import('./prompt-elicitation.js');
  const streams = { input: process.stdin, output: process.stderr };
  // A progress spinner would draw over the questions.
  const resume = cli.terminal.holdSpinner();
  try {
    if (!url) return await promptForm(context.server, params, streams, context.signal);
    // The parser's spelling, not the server's: the browser gets what the terminal showed.
    if (url.openable) await openBrowser(url.href, cli.env).catch((error: Error) => cli.terminal.error(`${error.message}; open the URL above yourself`));
    return await promptUrl(context.server, { message: params.message, url: url.shown }, streams, context.signal);
  } finally {
    resume();
  }
}

/** Ends the command with `error` (the call in flight ends with it) and answers cancel: the server is not left waiting. */
function stop(cli: ElicitContext, error: ToolrunError): ElicitResult {
  if (!cli.endCommand) throw error;
  cli.endCommand(error);
  return { action: 'cancel' };
}

function scriptedAnswersOf(cli: ElicitContext): ScriptedAnswers {
  const flags = cli.globals.askBack;
  for (const answer of flags.answer) if (answer.indexOf('=') <= 0) throw new UsageError(`--answer takes field=value (or field:=json), got ${JSON.stringify(answer)}`);
  const answers: ScriptedAnswers = { words: parseArgWords(flags.answer), action: flags.elicit };
  if (flags.answers !== undefined) {
    answers.roundsFile = `--answers ${flags.answers}`;
    answers.rounds = parseAnswersFile(readAnswersFile(resolve(cli.cwd, flags.answers), answers.roundsFile), answers.roundsFile);
  }
  return answers;
}

function readAnswersFile(path: string, where: string): string {
  try {
    if (statSync(path).size > ANSWERS_FILE_LIMIT_BYTES) throw new UsageError(`${where} is larger than 1 MB; an answers file is a JSON array of rounds`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${where}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}; check the path (relative to the current folder)`,
    );
  }
}

function urlOf(params: ElicitParams): ElicitationUrl | undefined {
  const record = params as { mode?: unknown; url?: unknown };
  return record.mode === 'url' && typeof record.url === 'string' ? readElicitationUrl(record.url) : undefined;
}

/** Server text on one line, quoted and escaped (no terminal control, no forged line), at most 200 characters. */
function quoted(text: unknown): string {
  return escapeControls(JSON.stringify(maskThenCut(String(text ?? ''), 200)));
}
