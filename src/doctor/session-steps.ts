import type { ServerConnection } from '../mcp/server-connection.js';
import { checkMcpTools } from '../mcp/check-mcp-tools.js';
import type { DoctorStep } from './doctor-types.js';
import type { DoctorOptions } from './run-doctor.js';
import type { SetStep } from './set-step.js';

/** Steps 4 and 7 of doctor, on the live connection: the tools (and resources, prompts), and latency. */

const PINGS = 5;

export async function reportTools(connection: ServerConnection, options: DoctorOptions, set: SetStep): Promise<void> {
  const findings = checkMcpTools(connection.name, connection.tools);
  const local = new Set(options.localToolNames);
  for (const tool of connection.tools) {
    if (local.has(tool.name)) findings.push({ server: connection.name, tool: tool.name, severity: 'warning', message: `a local tool has the same name: this one answers to ${connection.name}:${tool.name}` });
  }
  const counts: string[] = [`${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'}`];
  const data: Record<string, unknown> = { tools: connection.tools.length, tool_names: connection.tools.map((tool) => tool.name), findings };
  // Resources and prompts are counted when offered, every page of them.
  const client = connection.client;
  const listings = [
    { capability: 'resources', noun: 'resource', page: (cursor?: string) => client.listResources(cursor ? { cursor } : undefined, { timeout: options.timeoutMs }).then((r) => ({ count: r.resources.length, next: r.nextCursor })) },
    { capability: 'prompts', noun: 'prompt', page: (cursor?: string) => client.listPrompts(cursor ? { cursor } : undefined, { timeout: options.timeoutMs }).then((r) => ({ count: r.prompts.length, next: r.nextCursor })) },
  ] as const;
  for (const listing of listings) {
    if (!connection.capabilities?.[listing.capability]) continue;
    try {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await listing.page(cursor);
        count += page.count;
        cursor = page.next;
      } while (cursor);
      counts.push(`${count} ${listing.noun}${count === 1 ? '' : 's'}`);
      data[listing.capability] = count;
    } catch (error) {
      findings.push({ server: connection.name, tool: `(${listing.capability})`, severity: 'warning', message: `${listing.capability}/list failed: ${(error as Error).message}` });
    }
  }
  const details = findings.map((finding) => `${finding.severity === 'error' ? '✖' : '⚠'} ${finding.tool}: ${finding.message}`);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  if (connection.tools.length === 0 && !connection.capabilities?.tools) set('tools', 'ok', `no tools offered${counts.length > 1 ? ` · ${counts.slice(1).join(' · ')}` : ''}`, { data });
  else if (errors > 0) set('tools', 'fail', `${counts.join(' · ')} · ${errors} definition problem${errors === 1 ? '' : 's'}`, { details, fix: 'fix the tool definitions on the server: clients may refuse or mis-call these tools', data });
  else if (findings.length > 0) set('tools', 'warn', `${counts.join(' · ')} · ${findings.length} warning${findings.length === 1 ? '' : 's'}`, { details, data });
  else set('tools', 'ok', `${counts.join(' · ')} · schemas compile, names follow the MCP rules, all described`, { data });
}

export async function reportLatency(connection: ServerConnection, options: DoctorOptions, set: SetStep): Promise<void> {
  const pings: number[] = [];
  let pingError: string | undefined;
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
  const parts = median === undefined ? [] : [`ping median ${median.toFixed(2)} ms (${pings.length} pings)`];
  let status: DoctorStep['status'] = pingError ? 'fail' : 'ok';
  let fix = pingError ? 'answer ping requests (the spec requires it; clients use it for health checks)' : undefined;
  if (options.call) {
    const started = performance.now();
    try {
      const schema = connection.tools.find((tool) => tool.name === options.call!.tool)?.inputSchema as Record<string, unknown> | undefined;
      const result = await connection.client.callTool({ name: options.call.tool, arguments: options.call.args(schema) }, undefined, { timeout: options.timeoutMs });
      const ms = performance.now() - started;
      data.call = { tool: options.call.tool, ms: Math.round(ms * 100) / 100, is_error: Boolean(result.isError) };
      parts.push(`${options.call.tool} ${result.isError ? 'returned an error' : 'answered'} in ${ms.toFixed(1)} ms`);
      if (result.isError) {
        status = 'fail';
        fix = `the call returned isError: ${(result.content as Array<{ type: string; text?: string }>).map((item) => item.text ?? '').join(' ').slice(0, 200)}`;
      }
    } catch (error) {
      status = 'fail';
      data.call = { tool: options.call.tool, error: (error as Error).message };
      parts.push(`${options.call.tool} failed: ${(error as Error).message}`);
    }
  }
  set('latency', status, pingError ? `ping failed: ${pingError}${parts.length ? ` · ${parts.join(' · ')}` : ''}` : parts.join(' · '), { fix, data });
}

