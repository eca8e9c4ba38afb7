import type { ToolrunConfig } from '../config/config-types.js';
import type { AskBack } from '../mcp/ask-back.js';
import type { CliContext } from './cli-context.js';
import { elicitFor } from './elicit-for.js';
import { rootsFor } from './roots-for.js';
import { samplingFor } from './sampling-for.js';

/**
 * The AskBack of one command (SPEC §15), from its flags. Elicitation is always advertised: toolrun
 * always has an answer (the flags', the person's on a terminal, else a decline that says how to
 * answer). Sampling and roots are advertised only when a responder or a root is given
 * (sampling-for.ts, roots-for.ts).
 */
export function askBackFor(
  cli: Pick<CliContext, 'globals' | 'terminal' | 'cwd' | 'env' | 'signal'> & Partial<Pick<CliContext, 'endCommand'>>,
  config?: Pick<ToolrunConfig, 'roots' | 'path' | 'timeoutMs'>,
): AskBack {
  const flags = cli.globals.askBack;
  return {
    elicit: elicitFor(cli),
    sample: samplingFor(cli, config?.timeoutMs),
    roots: rootsFor(flags.root, cli.cwd, config),
  };
}
