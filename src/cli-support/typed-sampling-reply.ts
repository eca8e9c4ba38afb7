import { createInterface } from 'node:readline';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { SamplingParams } from '../mcp/ask-back.js';
import { escapeControls } from '../output/escape-controls.js';
import { textResult } from '../sampling/sampling-result.js';

export const TYPED_MODEL = 'toolrun (typed at the terminal)';

/** Where the person is: the request is written to `write` (stderr), the reply read from `input` (stdin). */
export interface SamplingTerminal {
  input: NodeJS.ReadableStream;
  write(text: string): void;
}

/**
 * A sampling request answered by the person at the terminal (SPEC §15): the request is shown (who
 * asks, the token limit, the system prompt, each message; server text escaped, so it cannot move
 * the cursor or forge a line of toolrun's), then the reply is read line by line until an empty line
 * or the end of input. An empty reply declines: undefined.
 */
export async function typeSamplingReply(params: SamplingParams, server: string, terminal: SamplingTerminal): Promise<CreateMessageResult | undefined> {
  terminal.write(describeSamplingRequest(params, server));
  const lines: string[] = [];
  const reader = createInterface({ input: terminal.input, terminal: false });
  try {
    for await (const line of reader) {
      if (line === '') break;
      lines.push(line);
    }
  } finally {
    reader.close();
  }
  return lines.length === 0 ? undefined : textResult(lines.join('\n'), TYPED_MODEL);
}

/** The request as the person reads it; each line of server text indented under its label. */
export function describeSamplingRequest(params: SamplingParams, server: string): string {
  const shown = (text: string) => escapeControls(text).replace(/\n/g, '\n    ');
  const lines = [`server '${shown(server)}' asks for a model reply (sampling, at most ${Number(params.maxTokens)} tokens):`];
  if (typeof params.systemPrompt === 'string' && params.systemPrompt) lines.push(`  system: ${shown(params.systemPrompt)}`);
  for (const message of params.messages ?? []) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) {
      const text = block.type === 'text' ? block.text : `[${block.type}${'mimeType' in block && typeof block.mimeType === 'string' ? ` ${block.mimeType}` : ''}]`;
      lines.push(`  ${shown(String(message.role))}: ${shown(text)}`);
    }
  }
  lines.push('Type the reply, then an empty line (an empty reply declines):');
  return `${lines.join('\n')}\n`;
}
