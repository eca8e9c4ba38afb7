import { describe, expect, it } from 'vitest';
import { claudeCodeGate, type ClaudeSettings } from '../../src/hosts/claude-code-approvals.js';

const file = (scope: ClaudeSettings['scope'], value: Record<string, unknown>): ClaudeSettings => ({ scope, path: `/${scope}.json`, value });
const project = { name: 'db', scope: 'project' as const, command: ['npx', '-y', 'db-server'] };

describe("Claude Code's rules (pure)", () => {
  it('a rejection anywhere wins over every approval; enableAll: the highest-precedence file in a trusted folder, any true otherwise', () => {
    expect(claudeCodeGate(project, [file('user', { enabledMcpjsonServers: ['db'] }), file('project', { disabledMcpjsonServers: ['db'] })], false, '/r').gate?.state).toBe('rejected');
    const localOff = [file('local', { enableAllProjectMcpServers: false }), file('user', { enableAllProjectMcpServers: true })];
    expect(claudeCodeGate(project, localOff, true, '/r').gate?.state).toBe('pending-approval');
    // Untrusted, the local file is not honoured: the user's true is enough.
    expect(claudeCodeGate(project, localOff, false, '/r')).toEqual({ approved: 'enableAllProjectMcpServers in /user.json' });
    expect(claudeCodeGate({ ...project, scope: 'user' }, [], false, '/r')).toEqual({});
  });

  it('managed lists: a denylist match blocks any scope; a set allowlist blocks what it does not match, by command when it lists commands', () => {
    const user = { ...project, scope: 'user' as const };
    expect(claudeCodeGate(user, [file('managed', { deniedMcpServers: [{ serverName: 'db' }] })], true, '/r').gate?.state).toBe('denied');
    expect(claudeCodeGate(user, [file('managed', { allowedMcpServers: [] })], true, '/r').gate?.state).toBe('denied');
    const byCommand = file('managed', { allowedMcpServers: [{ serverName: 'db' }, { serverCommand: ['npx', '-y', 'other'] }] });
    expect(claudeCodeGate(user, [byCommand], true, '/r').gate?.reason).toBe('not in allowedMcpServers of /managed.json');
    expect(claudeCodeGate(user, [file('managed', { allowedMcpServers: [{ serverCommand: ['npx', '-y', 'db-server'] }] })], true, '/r')).toEqual({});
    const remote = { name: 'r', scope: 'user' as const, url: 'https://MCP.example.com/v1' };
    expect(claudeCodeGate(remote, [file('managed', { allowedMcpServers: [{ serverUrl: 'https://*.example.com/*' }] })], true, '/r')).toEqual({});
  });
});
