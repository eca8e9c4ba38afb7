import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildLock, buildLockedServer, formatLock } from '../../src/lock/build-lock.js';
import { checkLock } from '../../src/lock/check-lock.js';
import { launchIdentity, unpinnedLaunch } from '../../src/lock/launch-identity.js';
import type { LockedServer, ServerApi } from '../../src/lock/lock-types.js';
import { parseLock } from '../../src/lock/read-lock.js';
import type { RawServerConfig } from '../../src/config/config-types.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({ name, description, inputSchema: { type: 'object', properties } });

function api(name: string, tools: Array<Record<string, unknown>>, extra: Partial<ServerApi> = {}): ServerApi {
  return { name, launch: { command: 'node', args: [`${name}.js`] }, serverInfo: { name, version: '1.0.0' }, snapshot: { tools, prompts: [], resourceTemplates: [] }, ...extra };
}

const entries = (apis: ServerApi[]): Record<string, LockedServer> => Object.fromEntries(apis.map((item) => [item.name, buildLockedServer(item, [])]));

describe('the lock file', () => {
  const many = Array.from({ length: 40 }, (_, index) =>
    api(
      `server-${index}`,
      Array.from({ length: 5 }, (_unused, t) => tool(`tool_${(t * 7) % 5}`, `does ${t}`, { b: { type: 'string' }, a: { type: 'number', description: 'x' } })),
    ),
  );

  it('100 runs give identical bytes, whatever the order of the servers and of their tools', () => {
    const first = formatLock(buildLock(entries(many)));
    for (let run = 0; run < 100; run++) {
      const shuffled = [...many].sort(() => Math.random() - 0.5).map((item) => ({ ...item, snapshot: { ...item.snapshot, tools: [...item.snapshot.tools].reverse() } }));
      expect(formatLock(buildLock(entries(shuffled)))).toBe(first);
    }
    expect(first.endsWith('}\n')).toBe(true);
    expect(parseLock(first).servers['server-3']!.tools.map((item) => item.key)).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4']);
  });

  it('hashes a tool over its six fields only: icons, execution and _meta do not change its hash', () => {
    const plain = buildLockedServer(api('s', [tool('t', 'd')]), []).tools[0]!;
    const decorated = buildLockedServer(api('s', [{ ...tool('t', 'd'), icons: [{ src: 'x.png' }], execution: { taskSupport: 'optional' } }]), []).tools[0]!;
    expect(decorated).toEqual(plain);
    const canonical = '{"description":"d","inputSchema":{"properties":{},"type":"object"},"name":"t"}';
    expect(plain.sha256).toBe(createHash('sha256').update(canonical).digest('hex'));
  });
});

describe('checkLock', () => {
  it('a tool that moves to another server is one change, not a removal and an addition', () => {
    const before = entries([api('a', [tool('search', 'Search'), tool('keep', 'Keep')]), api('b', [])]);
    const after = entries([api('a', [tool('keep', 'Keep')]), api('b', [tool('search', 'Search')])]);
    expect(checkLock(before, after).changes).toEqual([
      {
        server: 'a',
        kind: 'renamed',
        what: 'tool',
        path: 'a/tools.search',
        breaking: true,
        before: 'a/search',
        after: 'b/search',
        reason: "moved to server 'b', definition unchanged: calls by the old name fail, and the model sees it under a name no one approved",
      },
    ]);
  });

  it('a renamed tool whose description changed too is a removal and an addition', () => {
    const before = entries([api('a', [tool('search', 'Search')])]);
    const after = entries([api('a', [tool('find', 'Find')])]);
    expect(checkLock(before, after).changes.map((change) => `${change.kind} ${change.path}`)).toEqual(['removed a/tools.search', 'added a/tools.find']);
  });

  it("a remote server's new version is a warning; a stdio server's is a change", () => {
    const remote = (version: string) => ({ a: buildLockedServer(api('a', [], { launch: { url: 'https://example.com/mcp' }, serverInfo: { name: 'a', version } }), []) });
    expect(checkLock(remote('1'), remote('2'))).toEqual({ changes: [], warnings: ['a reports version 2 (pinned 1): a new deployment of a remote server; its tools are checked one by one'] });
    const local = (version: string) => ({ a: buildLockedServer(api('a', [], { serverInfo: { name: 'a', version } }), []) });
    expect(checkLock(local('1'), local('2')).changes.map((change) => change.path)).toEqual(['a/server.version']);
  });

  it('a package npx resolved to another release is a change', () => {
    const npx = (resolved: string) => ({
      a: buildLockedServer(api('a', [], { launch: { command: 'npx', args: ['-y', 'pkg'] }, package: { runner: 'npx', spec: 'pkg', name: 'pkg', resolved } }), []),
    });
    expect(checkLock(npx('1.0.0'), npx('1.1.0')).changes).toEqual([
      {
        server: 'a',
        kind: 'changed',
        what: 'launch',
        path: 'a/package.resolved',
        breaking: false,
        before: '1.0.0',
        after: '1.1.0',
        reason: 'npx resolved pkg to 1.1.0, pinned 1.0.0: a new release runs; pin the version, or approve it with toolrun lock --update a',
      },
    ]);
  });
});

describe('launch identity', () => {
  const stdio = (command: string, args: string[]): RawServerConfig => ({ transport: 'stdio', name: 's', command, args, env: {} });

  it('records the package and image a launch names, with secrets masked', () => {
    expect(launchIdentity(stdio('npx', ['-y', '@modelcontextprotocol/server-memory@2025.8.4']))).toEqual({
      launch: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2025.8.4'] },
      package: { runner: 'npx', spec: '@modelcontextprotocol/server-memory@2025.8.4', name: '@modelcontextprotocol/server-memory', version: '2025.8.4' },
    });
    expect(launchIdentity(stdio('uvx', ['mcp-server-git==0.6.2'])).package).toEqual({ runner: 'uvx', spec: 'mcp-server-git==0.6.2', name: 'mcp-server-git', version: '0.6.2' });
    const digest = 'sha256:'.padEnd(71, 'a');
    expect(launchIdentity(stdio('docker', ['run', '-i', '--rm', '-e', 'TOKEN', `ghcr.io/github/github-mcp-server@${digest}`])).image).toEqual({
      ref: `ghcr.io/github/github-mcp-server@${digest}`,
      digest,
    });
    expect(launchIdentity(stdio('node', ['server.js', '--api-key', 'sk-live-abcdefabcdef1234']))).toEqual({ launch: { command: 'node', args: ['server.js', '--api-key', '***'] } });
    expect(launchIdentity({ transport: 'http', name: 's', url: 'https://example.com/mcp?api_key=abcdef123456', headers: {} })).toEqual({ launch: { url: 'https://example.com/mcp?api_key=***' } });
  });

  it('names the unpinned launches: npx without a version or at @latest, uvx without a version, docker at latest', () => {
    const why = (command: string, args: string[]) => unpinnedLaunch(launchIdentity(stdio(command, args)));
    expect(why('npx', ['-y', '@modelcontextprotocol/server-memory'])).toBe(
      'npx runs @modelcontextprotocol/server-memory without a version: each start may run a newer release; pin it (@modelcontextprotocol/server-memory@X.Y.Z)',
    );
    expect(why('npx', ['-y', 'mongodb-mcp-server@latest'])).toBe('npx runs mongodb-mcp-server at @latest: each start may run a newer release; pin it (mongodb-mcp-server@X.Y.Z)');
    expect(why('uvx', ['mcp-server-git'])).toBe('uvx runs mcp-server-git without a version: each start may run a newer release; pin it (mcp-server-git==X.Y.Z)');
    expect(why('docker', ['run', '-i', '--rm', 'mcp/fetch'])).toBe('docker runs mcp/fetch (no tag: latest): the tag can point at another image tomorrow; pin it by digest (mcp/fetch@sha256:…)');
    expect(why('docker', ['run', '-i', 'mcp/fetch:latest'])).toBe('docker runs mcp/fetch:latest: the tag can point at another image tomorrow; pin it by digest (mcp/fetch@sha256:…)');
    expect(why('npx', ['-y', '@modelcontextprotocol/server-memory@2025.8.4'])).toBeUndefined();
    expect(why('uvx', ['mcp-server-git@0.6.2'])).toBeUndefined();
    expect(why('docker', ['run', 'mcp/fetch:1.2'])).toBeUndefined();
    expect(why('node', ['server.js'])).toBeUndefined();
  });
});
