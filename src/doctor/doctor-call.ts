import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinitionFinding } from '../mcp/check-mcp-tools.js';
import { describeSchemaIssues } from '../mcp/describe-invalid-result.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { citeSpec, SPEC_SECTION } from '../protocol/spec-sections.js';
import { compileArgsValidator } from '../schema/compile-schema.js';
import { maskThenCut } from '../secrets/mask-secrets.js';

/** The one real call of `doctor --call`: its timing (latency step) and its result, as the server sent it (tools step). */
export interface DoctorCallOutcome {
  tool: string;
  ms: number;
  result?: Record<string, unknown>;
  error?: string;
  /** Not called: the server does not list the tool (`error` says so, with the closest names). */
  notListed?: boolean;
}

/**
 * Calls the tool with a plain tools/call request: the SDK clients would check structuredContent
 * themselves and throw one generic message, where doctor wants to quote the failing path.
 */
export async function makeDoctorCall(connection: ServerConnection, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<DoctorCallOutcome> {
  const started = performance.now();
  try {
    const result = await connection.client.request('tools/call', { name: tool, arguments: args }, { timeout: timeoutMs });
    return { tool, ms: performance.now() - started, result };
  } catch (error) {
    return { tool, ms: performance.now() - started, error: (error as Error).message };
  }
}

/**
 * What the spec asks of a call's result (SPEC §9): the shape of a CallToolResult; with an
 * outputSchema, structuredContent on success that validates — and on an isError result, when one is
 * sent, it validates too; structuredContent is an object, mirrored as text for older clients.
 */
export async function checkCallResult(server: string, tool: Tool | undefined, outcome: DoctorCallOutcome): Promise<ToolDefinitionFinding[]> {
  const result = outcome.result;
  if (!result) return [];
  const findings: ToolDefinitionFinding[] = [];
  const add = (severity: ToolDefinitionFinding['severity'], message: string, section: (typeof SPEC_SECTION)[keyof typeof SPEC_SECTION]) =>
    findings.push({ server, tool: outcome.tool, severity, message: `--call: ${message}`, spec: citeSpec(section) });
  const { CallToolResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const shape = CallToolResultSchema.safeParse(result);
  if (!shape.success) add('error', `the result is not a valid CallToolResult: ${describeSchemaIssues(shape.error) ?? 'invalid'}`, SPEC_SECTION.toolResult);
  const isError = result.isError === true;
  const structured = result.structuredContent;
  const outputSchema = tool?.outputSchema as Record<string, unknown> | undefined;
  if (structured !== undefined && (typeof structured !== 'object' || structured === null || Array.isArray(structured))) {
    add('error', `structuredContent must be a JSON object (got ${Array.isArray(structured) ? 'an array' : structured === null ? 'null' : typeof structured})`, SPEC_SECTION.structuredContent);
    return findings;
  }
  if (outputSchema && structured === undefined && !isError) {
    add('error', 'the tool declares an outputSchema but the result has no structuredContent (servers must return structured results that conform to it)', SPEC_SECTION.outputSchema);
  }
  if (outputSchema && structured !== undefined) {
    const mismatch = validateStructured(outputSchema, structured as Record<string, unknown>);
    if (mismatch) add('error', `structuredContent${isError ? ' of the isError result' : ''} does not match the outputSchema: ${mismatch}`, SPEC_SECTION.outputSchema);
  }
  if (structured !== undefined && !isError) {
    const texts = Array.isArray(result.content) ? (result.content as Array<{ type?: string }>).filter((item) => item?.type === 'text') : [];
    if (texts.length === 0) add('warning', 'structuredContent is not also given as text content (clients without structured output see nothing)', SPEC_SECTION.structuredContent);
  }
  return findings;
}

/** The first failure, with its path and the value found: `structuredContent.count: must be number (found "three")`. */
function validateStructured(schema: Record<string, unknown>, value: Record<string, unknown>): string | undefined {
  let validate: ReturnType<typeof compileArgsValidator>;
  try {
    validate = compileArgsValidator(schema);
  } catch (error) {
    return `the outputSchema does not compile (${(error as Error).message.split('\n')[0]})`;
  }
  const outcome = validate(value);
  if (outcome.valid) return undefined;
  const [first, ...rest] = outcome.errors;
  if (!first) return 'invalid';
  const segments = first.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path = segments.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : `${text}.${part}`), 'structuredContent');
  const found = segments.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], value);
  const detail = first.keyword === 'required' ? `missing '${String((first.params as { missingProperty?: unknown }).missingProperty)}'` : `${first.message ?? 'invalid'} (found ${quote(found)})`;
  return `${path}: ${detail}${rest.length > 0 ? ` (and ${rest.length} more)` : ''}`;
}

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return maskThenCut(text, 60, '...');
}
