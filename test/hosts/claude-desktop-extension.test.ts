import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getMcpConfigForManifest, type McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import { composeMcpConfig, systemDirs } from '../../src/verify/mcpb/compose-mcp-config.js';

// composeMcpConfig follows getMcpConfigForManifest synchronously: the toolkit's own function is the check.
describe('composeMcpConfig', () => {
  const folder = '/ext/files';
  const home = '/home/ada';
  const cases: Array<{ title: string; config: McpbManifestAny['server']['mcp_config']; values: Record<string, string | number | boolean | string[]> }> = [
    {
      title: 'dirname, folders, separators, a list as whole argument, a boolean and a number',
      config: {
        command: 'node',
        args: [
          '${__dirname}/server/index.js',
          '${user_config.dirs}',
          '--home=${HOME}',
          '--docs=${DOCUMENTS}${/}x',
          '--sep=${pathSeparator}',
          '--verbose=${user_config.verbose}',
          '--port',
          '${user_config.port}',
        ],
        env: { KEY: '${user_config.key}', DL: '${DOWNLOADS}' },
      },
      values: { dirs: ['/a b', '/c'], verbose: true, port: 9000, key: 'sk-1' },
    },
    {
      title: 'a list inside a string and unknown variables stay as written',
      config: { command: 'x', args: ['--dirs=${user_config.dirs}', '${user_config.none}', '${NOPE}'] },
      values: { dirs: ['/a'] },
    },
    { title: 'an empty whole argument stays as written, inside a string it is empty', config: { command: 'x', args: ['${user_config.empty}', 'a${user_config.empty}b'] }, values: { empty: '' } },
  ];
  for (const { title, config, values } of cases) {
    it(title, async () => {
      const manifest = {
        manifest_version: '0.3',
        name: 'n',
        version: '1.0.0',
        description: 'd',
        author: { name: 'a' },
        server: { type: 'node', entry_point: 'x', mcp_config: config },
      } as McpbManifestAny;
      const theirs = await getMcpConfigForManifest({ manifest, extensionPath: folder, systemDirs: systemDirs(home, posix), userConfig: values, pathSeparator: '/' });
      const ours = composeMcpConfig(config, { folder, values, platform: process.platform, home, paths: posix });
      expect(ours).toEqual({ command: theirs!.command, args: theirs!.args ?? [], env: theirs!.env ?? {} });
    });
  }

  it('the platform asked for, not the current one, picks the override (command, args, env replaced whole)', () => {
    const config = { command: 'node', args: ['a'], env: { A: '1' }, platform_overrides: { win32: { command: 'node.exe', env: { B: '2' } } } };
    expect(composeMcpConfig(config, { folder, values: {}, platform: 'win32', home, paths: posix })).toEqual({ command: 'node.exe', args: ['a'], env: { B: '2' } });
    expect(composeMcpConfig(config, { folder, values: {}, platform: 'linux', home, paths: posix })).toEqual({ command: 'node', args: ['a'], env: { A: '1' } });
  });
});
