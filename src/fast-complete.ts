import { BUILTIN_TOOL_NAMES } from './cli-support/is-local-tool.js';
import { COMMAND_TABLE } from './completion/command-table.generated.js';
import { completeWords } from './completion/complete-words.js';
import { completionSources } from './completion/completion-sources.js';
import { escapeControls } from './output/escape-controls.js';

/**
 * `toolrun __complete WORD…`: the hidden entry the completion scripts call on every Tab (SPEC §17),
 * answered before the CLI loads, as fast-hosts.ts is: loading commander and every command costs
 * more than the whole completion, so commands and options come from the committed table
 * (completion/command-table.generated.ts, kept equal to the program by a test), servers from the
 * config and tools from the tool index, never from a started server. WORDs: those after `toolrun`,
 * the last being the one typed (maybe empty). Prints `:words` or `:files`, then one candidate a line
 * (`VALUE<TAB>DESCRIPTION`); a problem prints no candidates, never an error: a Tab must not spill
 * messages into the line being typed. Always exit 0.
 */
export async function runFastComplete(words: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let output = ':words\n';
  try {
    const completion = await completeWords(words.length > 0 ? words : [''], COMMAND_TABLE, (settings) => completionSources(settings, env, process.cwd(), BUILTIN_TOOL_NAMES));
    if (completion.files) output = ':files\n';
    else output += completion.candidates.map((candidate) => (candidate.description ? `${candidate.value}\t${oneLine(candidate.description)}` : candidate.value) + '\n').join('');
  } catch {
    // Nothing to offer: the shell completes nothing.
  }
  process.stdout.write(output);
  return 0;
}

/**
 * A description may name a server (`mcp:NAME`), the config's or a host's text: its controls are spelled
 * out, so no line break or tab splits the candidate's line and no escape reaches the terminal. (A
 * value never holds one: completeWords offers no such name.)
 */
function oneLine(text: string): string {
  return escapeControls(text).replace(/[\t\n]/g, (character) => (character === '\n' ? '\\n' : '\\t'));
}
