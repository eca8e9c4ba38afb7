import type { HostPlaces } from './host-paths.js';
import type { HostFileReport, HostName } from './host-types.js';
import { claudeCodeGate } from './claude-code-approvals.js';
import { readClaudeProjectState } from './claude-code-settings.js';
import { codexProjectTrust } from './codex-trust.js';
import { geminiFolderTrust } from './gemini-trust.js';

/**
 * Marks, in place, the servers each host would not start: a project server not approved, one
 * rejected, a project or folder the person does not trust (SPEC §13: "started as the host starts
 * it" starts nothing the host would refuse). The rules of each host are in its own file, with sources.
 */
export function applyHostGates(reports: HostFileReport[], places: HostPlaces): void {
  const hosts = new Set<HostName>(reports.map((report) => report.host));
  if (hosts.has('claude-code')) gateClaudeCode(reports, places);
  if (hosts.has('codex')) gateCodex(reports, places);
  if (hosts.has('gemini')) gateGemini(reports, places);
}

function gateClaudeCode(reports: HostFileReport[], places: HostPlaces): void {
  const state = readClaudeProjectState(places);
  for (const report of reports) {
    if (report.host !== 'claude-code') continue;
    for (const server of report.servers) {
      if (state.toggledOff.has(server.name)) server.disabled = true;
      const entry = server.entry;
      const command = typeof entry.command === 'string' ? [entry.command, ...(Array.isArray(entry.args) ? entry.args.map(String) : [])] : undefined;
      const url = typeof entry.url === 'string' ? entry.url : undefined;
      const { gate, approved } = claudeCodeGate({ name: server.name, scope: report.scope, command, url }, state.settings, state.trusted, state.root);
      server.gate = gate;
      server.approved = approved;
    }
  }
}

function gateCodex(reports: HostFileReport[], places: HostPlaces): void {
  for (const report of reports) {
    if (report.host !== 'codex' || report.scope !== 'project') continue;
    const gate = codexProjectTrust(report, places);
    if (gate) for (const server of report.servers) server.gate = gate;
  }
}

function gateGemini(reports: HostFileReport[], places: HostPlaces): void {
  const gate = geminiFolderTrust(places);
  if (!gate) return;
  for (const report of reports) if (report.host === 'gemini') for (const server of report.servers) server.gate = gate;
}
