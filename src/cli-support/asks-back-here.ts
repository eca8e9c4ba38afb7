import type { ToolrunConfig } from '../config/config-types.js';
import type { AskBackFlags } from './cli-context.js';

/**
 * True when this command answers sampling or offers roots (SPEC §15): its servers then start here,
 * not in a session holder, whose servers were started without this command's responder or roots
 * (a server sees them only in its `initialize`). A terminal alone does not count: warm stays warm.
 */
export function asksBackHere(flags: AskBackFlags, config: Pick<ToolrunConfig, 'roots'>): boolean {
  return [flags.samplingReply, flags.sampling, flags.samplingCommand].some((flag) => flag !== undefined) || flags.root.length > 0 || config.roots.length > 0;
}
