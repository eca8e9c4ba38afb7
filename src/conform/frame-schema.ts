/**
 * One JSON-RPC frame judged against the official JSON Schema of a protocol revision (SPEC §16): its
 * envelope (JSONRPCRequest, JSONRPCNotification, the result or error response) and, when the method
 * is one the revision defines, its body (a request or notification by its `method`, a result by the
 * method of the request it answers). A method the revision does not define is judged by its envelope
 * only: what its body should be is not the schema's to say.
 */
import { explainValidation, toFramePath } from './explain-schema-errors.js';
import { loadMcpSchema, schemaNodeAt, shippedRevisions, type McpSchema } from './mcp-schemas.js';
import type { RecordedFrame } from './probe-types.js';

export interface FrameViolation {
  /** Where in the frame, e.g. `result.tools[3]` ('' for the frame as a whole). */
  path: string;
  /** One line, e.g. `must have required property 'inputSchema'`. */
  message: string;
  /** The schema definition it was judged by, e.g. `ListToolsResult` ('' when the revision has no schema). */
  definition: string;
}

/** The violations of one frame (none when it is valid, or is not JSON at all: stdout purity judges those). */
export function validateFrame(revision: string, frame: RecordedFrame): FrameViolation[] {
  if (frame.message === undefined) return [];
  const schema = loadMcpSchema(revision);
  if (!schema) {
    const shipped = shippedRevisions();
    return [{ path: '', message: `toolrun has no JSON Schema for protocol revision ${revision} (it has ${shipped.join(', ') || 'none'})`, definition: '' }];
  }
  if (!Array.isArray(frame.message)) return validateMessage(schema, frame.message, frame.answers, '');
  // JSON-RPC batches: allowed by 2025-03-26 only, and the answers of a batch are not matched per element.
  if (!schema.defs.JSONRPCBatchRequest && !schema.defs.JSONRPCBatchResponse) {
    return [{ path: '', message: `must be a single JSON-RPC message (revision ${revision} has no batches)`, definition: 'JSONRPCMessage' }];
  }
  return frame.message.flatMap((element, index) => validateMessage(schema, element, undefined, `/${index}`));
}

// `prefix`: the JSON pointer of the message in the frame ('' or, in a batch, `/2`).
function validateMessage(schema: McpSchema, message: unknown, answers: string | undefined, prefix: string): FrameViolation[] {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return [{ path: toFramePath('', prefix), message: 'must be a JSON-RPC message object', definition: 'JSONRPCMessage' }];
  }
  const record = message as Record<string, unknown>;
  const judged: { definition: string; value: unknown; at: string }[] = [];
  if ('method' in record) {
    const isRequest = 'id' in record;
    judged.push({ definition: isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification', value: record, at: prefix });
    const method = typeof record.method === 'string' ? record.method : '';
    const body = (isRequest ? schema.requests : schema.notifications).get(method);
    if (body) judged.push({ definition: body, value: record, at: prefix });
  } else if ('result' in record) {
    judged.push({ definition: schema.defs.JSONRPCResultResponse ? 'JSONRPCResultResponse' : 'JSONRPCResponse', value: record, at: prefix });
    const body = answers === undefined ? undefined : resultDefinition(schema, answers, record.result);
    if (body) judged.push({ definition: body, value: record.result, at: `${prefix}/result` });
  } else if ('error' in record) {
    judged.push({ definition: schema.defs.JSONRPCErrorResponse ? 'JSONRPCErrorResponse' : 'JSONRPCError', value: record, at: prefix });
  } else {
    return [{ path: toFramePath('', prefix), message: "must be a request, a notification or a response (has no 'method', 'result' or 'error')", definition: 'JSONRPCMessage' }];
  }
  const violations: FrameViolation[] = [];
  const seen = new Set<string>();
  for (const { definition, value, at } of judged) {
    const validate = schema.validator(definition);
    if (!validate) continue;
    for (const problem of explainValidation(schema, validate, value, at)) {
      // The envelope and a 2025-11-25+ body both say `jsonrpc` must be "2.0": once is enough.
      const path = toFramePath('', problem.at);
      const key = `${path}\u0000${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      violations.push({ path, message: problem.message, definition });
    }
  }
  return violations;
}

/**
 * The result definition a response to `method` must match: `XResult` for `XRequest`; in 2026-07-28
 * the response definition names the union (`CallToolResultResponse`: InputRequiredResult or
 * CallToolResult) and `resultType` says which; in 2025-11-25 a task-augmented request is answered
 * by CreateTaskResult; a request with no result of its own (ping, logging/setLevel) by EmptyResult.
 */
function resultDefinition(schema: McpSchema, method: string, result: unknown): string | undefined {
  const request = schema.requests.get(method);
  if (!request) return undefined;
  const base = request.replace(/Request$/, '');
  const candidates = resultCandidates(schema, base);
  const fields = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
  if (fields.resultType === 'input_required' && candidates.includes('InputRequiredResult')) return 'InputRequiredResult';
  if (schema.defs.CreateTaskResult && typeof fields.task === 'object' && fields.task !== null && !('content' in fields)) return 'CreateTaskResult';
  return candidates.find((name) => name !== 'InputRequiredResult') ?? candidates[0];
}

function resultCandidates(schema: McpSchema, base: string): string[] {
  const response = schema.defs[`${base}ResultResponse`];
  if (response) {
    const node = schemaNodeAt(schema, `#/${schema.defsKey}/${base}ResultResponse/properties/result`) as { $ref?: string; anyOf?: { $ref?: string }[] } | undefined;
    const refs = node?.anyOf ? node.anyOf.map((branch) => branch.$ref) : [node?.$ref];
    const names = refs.filter((ref): ref is string => typeof ref === 'string').map((ref) => ref.split('/').pop() as string);
    if (names.length > 0) return names;
  }
  if (schema.defs[`${base}Result`]) return [`${base}Result`];
  return [schema.defs.EmptyResult ? 'EmptyResult' : 'Result'];
}
