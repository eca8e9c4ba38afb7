import type { ServerConnection } from '../mcp/server-connection.js';
import { checkMcpTools, formatToolFinding } from '../mcp/check-mcp-tools.js';
import { probeCapabilities } from '../mcp/connect/probe-capabilities.js';
import { takeSchemaWarnings } from '../schema/schema-warnings.js';
import { checkCallResult, type DoctorCallOutcome } from './doctor-call.js';
import type { DoctorStep } from './doctor-types.js';
import type { DoctorOptions } from './doctor-types.js';
import type { SetStep } from './set-step.js';
import { maskThenCut } from '../secrets/mask-secrets.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

/** Steps 4 and 7 of doctor, on the live connection: the tools (and resources, prompts), and latency. */

const PINGS = 5;

export async function reportTools(connection: ServerConnection, options: DoctorOptions, set: SetStep, call?: DoctorCallOutcome): Promise<void> {
  const findings = checkMcpTools(connection.name, connection.tools, connection.brokenTools);
  const local = new Set(options.localToolNames);
  for (const tool of connection.tools) {
    if (local.has(tool.name))
      findings.push({ server: connection.name, tool: tool.name, severity: 'warning', message: `a local tool has the same name: this one answers to ${connection.name}:${tool.name}` });
  }
  // Ajv's complaints about the schemas (collected while the tools were listed and checked): one finding.
  const schemaWarnings = takeSchemaWarnings();
  if (schemaWarnings.length > 0) {
    const formats = [...new Set(schemaWarnings.flatMap((warning) => [...warning.matchAll(/unknown format "([^"]+)"/g)].map((match) => match[1]!)))];
    const what =
      formats.length > 0 ? `unknown format${formats.length === 1 ? '' : 's'} ${formats.map((format) => `"${format}"`).join(', ')} (not checked by validators)` : maskThenCut(schemaWarnings[0]!, 200);
    findings.push({ server: connection.name, tool: '(schemas)', severity: 'warning', message: `${schemaWarnings.length} schema warning${schemaWarnings.length === 1 ? '' : 's'}: ${what}` });
  }
  const counts: string[] = [`${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}`];
  const data: Record<string, unknown> = { tools: connection.tools.length, tool_names: connection.tools.map((tool) => tool.name), findings };
  // Resources and prompts are counted when offered, every page of them; one advertised but not served is a problem.
  const probes = await probeCapabilities(connection, options.timeoutMs);
  const unserved = probes.filter((probe) => probe.error);
  for (const probe of probes) {
    if (probe.count !== undefined) {
      counts.push(`${probe.count} ${probe.capability.replace(/s$/, '')}${probe.count === 1 ? '' : 's'}`);
      data[probe.capability] = probe.count;
    } else findings.push({ server: connection.name, tool: `(${probe.capability})`, severity: 'error', message: probe.error! });
  }
  // With --call, what the spec asks of the result itself (structuredContent against outputSchema).
  const calledTool = call && connection.tools.find((tool) => tool.name === call.tool);
  const resultFindings = call ? await checkCallResult(connection.name, calledTool, call) : [];
  const definitionErrors = findings.filter((finding) => finding.severity === 'error').length;
  const resultErrors = resultFindings.filter((finding) => finding.severity === 'error').length;
  findings.push(...resultFindings);
  const details = findings.map((finding) => formatToolFinding(finding));
  const errors = definitionErrors + resultErrors;
  const problems = [
    definitionErrors > 0 && `${definitionErrors} definition problem${definitionErrors === 1 ? '' : 's'}`,
    resultErrors > 0 && `${resultErrors} problem${resultErrors === 1 ? '' : 's'} in the --call result`,
  ].filter(Boolean);
  const fixes = [
    definitionErrors > 0 && 'fix the tool definitions on the server: clients may refuse or mis-call these tools',
    resultErrors > 0 && `make ${call!.tool} return what the spec asks (structuredContent that matches its outputSchema): clients reject or mis-read it`,
  ].filter(Boolean);
  const conforming = call?.result?.structuredContent !== undefined && calledTool?.outputSchema && resultErrors === 0 ? ` · the --call result matches ${call.tool}'s outputSchema` : '';
  if (unserved.length > 0) set('tools', 'fail', `${counts.join(' · ')} · ${unserved.map((probe) => probe.error).join(' · ')}`, { details, fix: unserved.map((probe) => probe.fix).join('; '), data });
  else if (connection.tools.length === 0 && !connection.capabilities?.tools) set('tools', 'ok', `no tools offered${counts.length > 1 ? ` · ${counts.slice(1).join(' · ')}` : ''}`, { data });
  else if (errors > 0) set('tools', 'fail', `${counts.join(' · ')} · ${problems.join(' · ')}`, { details, fix: fixes.join('; '), data });
  else if (findings.length > 0) set('tools', 'warn', `${counts.join(' · ')} · ${findings.length} warning${findings.length === 1 ? '' : 's'}${conforming}`, { details, data });
  else set('tools', 'ok', `${counts.join(' · ')} · schemas compile, names follow the MCP rules, all described${conforming}`, { data });
}

export async function reportLatency(connection: ServerConnection, options: DoctorOptions, set: SetStep, call?: DoctorCallOutcome): Promise<void> {
  const pings: number[] = [];
  let pingError: string | undefined;
  // The 2026-07-28 era has no ping: server/discover is its cheapest round trip.
  const roundTrip = connection.era.era === 'modern' ? 'server/discover' : 'ping';
  for (let i = 0; i < PINGS; i++) {
    const started = performance.now();
    try {
      await connection.client.ping({ timeout: options.timeoutMs });
      pings.push(performance.now() - started);
    } catch (error) {
      pingError = (error as Error).message;
      break;
    }
  }
  const median = pings.length ? [...pings].sort((a, b) => a - b)[Math.floor(pings.length / 2)]! : undefined;
  const data: Record<string, unknown> = { ping_ms: pings.map((ms) => Math.round(ms * 100) / 100), ping_median_ms: median === undefined ? null : Math.round(median * 100) / 100 };
  const parts = median === undefined ? [] : [`${roundTrip} median ${median.toFixed(2)} ms (${pings.length} ${roundTrip === 'ping' ? 'pings' : 'round trips'})`];
  let status: DoctorStep['status'] = pingError ? 'fail' : 'ok';
  let fix = pingError ? `answer ${roundTrip} requests (the spec requires it; clients use it for health checks)` : undefined;
  if (call) {
    const ms = call.ms.toFixed(1);
    const result = call.result as { isError?: unknown; content?: unknown } | undefined;
    if (result) {
      const isError = result.isError === true;
      data.call = { tool: call.tool, ms: Math.round(call.ms * 100) / 100, is_error: isError };
      parts.push(`${call.tool} ${isError ? 'returned an error' : 'answered'} in ${ms} ms`);
      if (isError) {
        status = 'fail';
        const content = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
        fix = `the call returned isError: ${maskThenCut(content.map((item) => (typeof item?.text === 'string' ? item.text : '')).join(' '), 200)}`;
      }
    } else {
      status = 'fail';
      data.call = { tool: call.tool, error: call.error };
      parts.push(call.notListed ? `--call ${call.tool} not made: ${call.error}` : `${call.tool} failed: ${call.error}`);
      if (call.notListed) fix = `name one of the server's tools: ${toolrunCommand('list', '--server', connection.name)}`;
    }
  }
  set('latency', status, pingError ? `${roundTrip} failed: ${pingError}${parts.length ? ` · ${parts.join(' · ')}` : ''}` : parts.join(' · '), { fix, data });
}
