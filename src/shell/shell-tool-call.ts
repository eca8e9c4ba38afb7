import { parseArgWords } from '../args/parse-tool-args.js';
import { printExecOutcome, shapeOutcome } from '../cli-support/exec-output.js';
import { splitToolName } from '../cli-support/tool-arguments.js';
import { ToolrunError } from '../errors.js';
import type { ToolEnvelope } from '../executor/envelope.js';
import type { AskBack } from '../mcp/ask-back.js';
import type { Terminal } from '../output/terminal.js';
import { answerHolderAsk } from '../session/answer-holder-ask.js';
import type { HolderClient } from '../session/holder-client.js';
import type { RecordedCall } from '../testing/tests-from-recording.js';

export interface ShellCall {
  holder: HolderClient;
  terminal: Terminal;
  json: boolean;
  timeoutMs: number | undefined;
  askBack: () => Promise<AskBack>;
  signal: AbortSignal;
  /** Each call made and its answer, for `.save FILE` (a test file of the session's calls). */
  onCalled?: (call: RecordedCall) => void;
}

/**
 * `TOOL key=value…` or `SERVER:TOOL …`: the call `toolrun exec` makes through a holder (the holder
 * resolves the tool and types the arguments by its schema), printed as exec prints it. Progress
 * shows above the prompt; the servers' stderr and logs come from the shell's follow, not here.
 */
export async function callToolInShell(call: ShellCall, words: string[]): Promise<number> {
  const target = splitToolName(words[0]!, undefined);
  const argWords = parseArgWords(words.slice(1));
  const reply = await call.holder.request(
    'exec',
    { tool: target.name, server: target.server, words: argWords, args: {}, validate: true, timeoutMs: call.timeoutMs, verbose: false },
    {
      signal: call.signal,
      onEvent: (event) => {
        if (event.event === 'ask') answerHolderAsk(call.holder, event, call.askBack, call.signal);
        else if (event.event === 'progress') {
          const { progress, total, message } = event.progress as { progress: number; total?: number; message?: string };
          call.terminal.info(`[${event.server ?? target.server ?? target.name}] progress ${progress}${total !== undefined ? `/${total}` : ''}${message ? `: ${message}` : ''}`);
        } else if (event.event === 'note' && event.level !== 'verbose') {
          if (event.level === 'warn') call.terminal.warn(String(event.text));
          else call.terminal.info(String(event.text));
        }
      },
    },
  );
  if (typeof reply.miss === 'string')
    throw new ToolrunError('not_found', `'${words[0]}' is not a tool of the shell's servers (${reply.miss}); 'tools' lists them, 'restart SERVER' brings back one that went down`);
  const envelope = reply.envelope as ToolEnvelope;
  // As typed (a key=value word is typed by the schema again when the saved test runs); key:=json as its JSON.
  const args = Object.fromEntries(argWords.map((word) => [word.key, word.isJson ? (JSON.parse(word.value) as unknown) : word.value]));
  const name = envelope.server ? `${envelope.server}:${envelope.tool_name}` : envelope.tool_name;
  call.onCalled?.({
    method: 'tools/call',
    params: { name, arguments: args },
    ...(envelope.result !== undefined ? { result: envelope.result } : { error: { message: envelope.success ? '' : envelope.error } }),
  });
  const outcome = await shapeOutcome(envelope, {});
  return printExecOutcome(call.terminal, call.json, outcome, {});
}
