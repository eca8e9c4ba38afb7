import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { exitCodeForKind, ExitCode } from '../errors.js';
import type { ToolEnvelope } from '../executor/envelope.js';
import { isCallToolResult, simplifyCallResult } from '../mcp/call-result.js';
import { formatEnvelopeFooter, formatResult } from '../output/format-result.js';
import { renderCallResult, type SavedItem } from '../output/render-call-result.js';
import { toJson, type Terminal } from '../output/terminal.js';

/** exec's output modes (SPEC §10). */
export interface ExecOutputOptions {
  raw?: boolean;
  structured?: boolean;
  outputDir?: string;
}

/** An envelope as exec prints it, with the MCP result it was made from. */
export interface ExecOutcome {
  envelope: ToolEnvelope;
  call?: CallToolResult;
  saved?: Map<number, SavedItem>;
}

/**
 * The envelope's `result` per output mode, from an MCP tool's whole result (the manual's rule: docs/commands.md, "Tool results"):
 * text by default, structuredContent with --structured, everything with --raw; -o DIR saves binary
 * content first and lists the files. A failed call keeps its result only with --raw.
 */
export async function shapeOutcome(envelope: ToolEnvelope, options: ExecOutputOptions): Promise<ExecOutcome> {
  if (envelope.success && envelope.server && isCallToolResult(envelope.result)) {
    const call = envelope.result;
    let saved: Map<number, SavedItem> | undefined;
    if (options.outputDir) saved = await (await import('../output/save-binary-content.js')).saveBinaryContent(call, envelope.tool_name, options.outputDir);
    const shaped: ToolEnvelope = { ...envelope, result: options.raw ? call : options.structured ? (call.structuredContent ?? null) : simplifyCallResult(call) };
    if (saved?.size) shaped.files = [...saved.values()].map((item) => item.path);
    return { envelope: shaped, call, saved };
  }
  if (!envelope.success && !options.raw) {
    const { result: _result, ...rest } = envelope;
    return { envelope: rest as ToolEnvelope };
  }
  return { envelope };
}

/** Prints an exec outcome (stdout: the result; stderr: footer or error) and gives the exit code. */
export async function printExecOutcome(terminal: Terminal, json: boolean, outcome: ExecOutcome, options: ExecOutputOptions): Promise<number> {
  const { call, saved } = outcome;
  let envelope = outcome.envelope;
  // -o DIR never replaces a file (save-binary-content.ts): a person must learn the name used instead.
  for (const item of saved?.values() ?? []) {
    if (item.nameTaken) terminal.warn(`${item.nameTaken.path} exists${item.nameTaken.by === 'a regular file' ? '' : ` (${item.nameTaken.by})`}; saved as ${item.path} instead`);
  }
  if (options.structured && call && call.structuredContent === undefined) {
    envelope = {
      success: false,
      error: `'${envelope.tool_name}' returned no structuredContent; run without --structured to see its content`,
      error_kind: 'tool_error',
      tool_name: envelope.tool_name,
      execution_time_ms: envelope.execution_time_ms,
      source: envelope.source,
      server: envelope.server,
    };
  }
  if (json) await terminal.resultJson(envelope, { verbatimKeys: ['result'] });
  else if (envelope.success) {
    const text = call
      ? renderCallResult(call, options.raw ? 'raw' : options.structured ? 'structured' : 'text', { server: envelope.server, saved })
      : options.raw
        ? toJson(envelope.result)
        : formatResult(envelope.result);
    await terminal.result(text, { verbatim: true, json: Boolean(options.raw || (call && options.structured)) });
    terminal.info(formatEnvelopeFooter(envelope));
  } else if (options.raw && envelope.result !== undefined) {
    await terminal.result(toJson(envelope.result), { verbatim: true, json: true });
    terminal.error(`✖ ${envelope.tool_name}: ${envelope.error}`);
  } else if (envelope.error_kind === 'config') terminal.error(`✖ ${envelope.error}`);
  else terminal.error(`✖ ${envelope.tool_name}: ${envelope.error}`);
  if (!json && !envelope.success && envelope.server_stderr) {
    terminal.note(
      `  MCP server stderr (last ${envelope.server_stderr.length} line${envelope.server_stderr.length === 1 ? '' : 's'}):\n${envelope.server_stderr.map((line) => `    ${line}`).join('\n')}`,
    );
  }
  return envelope.success ? ExitCode.OK : exitCodeForKind(envelope.error_kind);
}
