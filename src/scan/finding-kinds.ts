/** The ways a line on an MCP server's stdout can break or confuse a client (SPEC §6). */
export type FindingKind = 'not-json' | 'not-jsonrpc' | 'glued' | 'multiple-messages' | 'empty' | 'bom' | 'crlf' | 'invalid-utf8' | 'unterminated' | 'oversize';

export interface KindInfo {
  /** error: some client loses or rejects the line; warning: every client reads it anyway. */
  severity: 'error' | 'warning';
  summary: string;
  /**
   * What the common clients do with such a line, as read in their source: the TypeScript SDK 1.x
   * (node_modules/@modelcontextprotocol/sdk 1.32: shared/stdio.js ReadBuffer, client/stdio.js),
   * 2.x (typescript-sdk packages/core/src/shared/stdio.ts), the Python SDK
   * (python-sdk src/mcp/client/stdio/__init__.py, stdout_reader).
   */
  clients: string;
}

export const KIND_INFO: Record<FindingKind, KindInfo> = {
  'not-json': {
    severity: 'error',
    summary: 'plain text, not JSON (typically a console.log or print)',
    clients: 'TS SDK 1.x: JSON.parse throws, onerror, line dropped · TS SDK 2.x: skipped silently · Python SDK: exception pushed into the message stream',
  },
  'not-jsonrpc': {
    severity: 'error',
    summary: 'JSON, but not a JSON-RPC 2.0 request, response or notification',
    clients: 'TS SDK 1.x: schema check throws, onerror, line dropped · TS SDK 2.x: schema check throws, reported as an error · Python SDK: validation exception pushed into the message stream',
  },
  glued: {
    severity: 'error',
    summary: 'stray text and a JSON-RPC message on one line: the message is lost',
    clients: 'TS SDK 1.x: JSON.parse throws, onerror, the message is lost · TS SDK 2.x: skipped silently, the message is lost · Python SDK: exception pushed, the message is lost',
  },
  'multiple-messages': {
    severity: 'error',
    summary: 'two or more JSON values on one line: all of them are lost',
    clients: 'TS SDK 1.x: JSON.parse throws, onerror, all lost · TS SDK 2.x: skipped silently, all lost · Python SDK: exception pushed, all lost',
  },
  empty: {
    severity: 'error',
    summary: 'an empty line',
    clients: 'TS SDK 1.x: JSON.parse("") throws, onerror · TS SDK 2.x: skipped silently · Python SDK: exception pushed into the message stream',
  },
  bom: {
    severity: 'error',
    summary: 'starts with a UTF-8 byte order mark, which JSON.parse rejects',
    clients:
      'TS SDK 1.x: JSON.parse throws, onerror, message lost · TS SDK 2.x: skipped silently, message lost · Python SDK: the BOM is not stripped; the line goes to pydantic as is (its verdict on a BOM not verified)',
  },
  crlf: {
    severity: 'warning',
    summary: 'ends with \\r\\n instead of \\n',
    clients: 'TS SDK 1.x and 2.x: the \\r is stripped, message read · Python SDK: \\r is JSON whitespace, message read',
  },
  'invalid-utf8': {
    severity: 'error',
    summary: 'bytes that are not valid UTF-8',
    clients: 'TS SDK 1.x and 2.x: decoded with U+FFFD replacements, the text changes silently · Python SDK: strict decoding raises outside the per-line handler, ending the reader',
  },
  unterminated: {
    severity: 'error',
    summary: 'the last line has no newline: a client waits for one forever',
    clients: 'TS SDK 1.x and 2.x: stays in the buffer, never delivered · Python SDK: stays in the buffer, never delivered',
  },
  oversize: {
    severity: 'error',
    summary: "over 10 MB, the TS SDK 1.x client's buffer",
    clients: 'TS SDK 1.x: ReadBuffer throws, onerror, and the transport closes · TS SDK 2.x: no limit, buffered · Python SDK: no limit, buffered',
  },
};

export const FIX_ADVICE = 'write diagnostics to stderr: console.error(), not console.log() (Python: print(..., file=sys.stderr), or logging to stderr)';
