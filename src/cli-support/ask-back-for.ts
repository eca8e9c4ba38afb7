import type { ToolrunConfig } from '../config/config-types.js';
import type { AskBack, ElicitParams } from '../mcp/ask-back.js';

/** A value an elicitation answer may hold (the protocol's primitive schema types). */
type ElicitValue = string | number | boolean | string[];
import { UsageError } from '../errors.js';
import type { CliContext } from './cli-context.js';
import { rootsFor } from './roots-for.js';
import { samplingFor } from './sampling-for.js';

/**
 * The AskBack of one command (SPEC §15), from its flags. Elicitation is always advertised: toolrun
 * always has an answer (the flags', else a decline that says how to answer). Sampling and roots are
 * advertised only when a responder or a root is given (sampling-for.ts, roots-for.ts).
 */
export function askBackFor(cli: Pick<CliContext, 'globals' | 'terminal' | 'cwd' | 'env' | 'signal'>, config?: Pick<ToolrunConfig, 'roots' | 'path' | 'timeoutMs'>): AskBack {
  const flags = cli.globals.askBack;
  return {
    elicit: async (params, context) => {
      if (flags.elicit === 'decline' || flags.elicit === 'cancel') return { action: flags.elicit };
      if (flags.elicit === 'accept' || flags.answer.length > 0) return { action: 'accept', content: { ...defaultsOf(params), ...answersOf(flags.answer) } };
      cli.terminal.warn(
        `server '${context.server}' asked for input${describeRequest(params)}; declined (no answers given): answer with --answer field=value, --answers FILE or --elicit accept|decline|cancel`,
      );
      return { action: 'decline' };
    },
    sample: samplingFor(cli, config?.timeoutMs),
    roots: rootsFor(flags.root, cli.cwd, config),
  };
}

/** What a request asks for, shown escaped on one line (server text never reaches the terminal raw). */
function describeRequest(params: ElicitParams): string {
  const message = typeof params.message === 'string' ? params.message : '';
  return message ? ` (${JSON.stringify(message.slice(0, 200))})` : '';
}

/** The schema's `default`s: what `--elicit accept` sends for the fields no --answer names. */
function defaultsOf(params: ElicitParams): Record<string, ElicitValue> {
  const properties = (params as { requestedSchema?: { properties?: Record<string, { default?: ElicitValue }> } }).requestedSchema?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).flatMap(([name, property]) => (property.default === undefined ? [] : [[name, property.default]])));
}

function answersOf(answers: string[]): Record<string, string> {
  return Object.fromEntries(
    answers.map((answer) => {
      const at = answer.indexOf('=');
      if (at <= 0) throw new UsageError(`--answer takes field=value, got ${JSON.stringify(answer)}`);
      return [answer.slice(0, at), answer.slice(at + 1)];
    }),
  );
}
