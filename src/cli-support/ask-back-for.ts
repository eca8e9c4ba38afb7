import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AskBack } from '../mcp/ask-back.js';
import { UsageError } from '../errors.js';
import type { CliContext } from './cli-context.js';
import { elicitFor } from './elicit-for.js';

/**
 * The AskBack of one command (SPEC §15), from its flags. Elicitation is always advertised: toolrun
 * always has an answer (the flags', else a decline that says how to answer). Sampling and roots are
 * advertised only when a responder or a root is given.
 */
export function askBackFor(cli: Pick<CliContext, 'globals' | 'terminal' | 'cwd' | 'env'> & Partial<Pick<CliContext, 'signal' | 'endCommand'>>): AskBack {
  const flags = cli.globals.askBack;
  return {
    elicit: elicitFor(cli),
    ...(flags.samplingReply !== undefined && {
      sample: async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: flags.samplingReply! }, model: 'toolrun --sampling-reply', stopReason: 'endTurn' }),
    }),
    ...(flags.root.length > 0 && { roots: rootsOf(flags.root, cli.cwd) }),
  };
}

/** `--root DIR`s as `file://` URIs; a folder that does not exist is a usage error, before any server starts. */
function rootsOf(dirs: string[], cwd: string): () => Array<{ uri: string; name: string }> {
  const roots = dirs.map((dir) => {
    const path = resolve(cwd, dir);
    let isDirectory = false;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      // Reported below.
    }
    if (!isDirectory) throw new UsageError(`--root ${dir}: no such folder (${path})`);
    return { uri: pathToFileURL(path).href, name: path.split('/').at(-1) || path };
  });
  return () => roots;
}
