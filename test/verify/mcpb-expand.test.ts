import { join } from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb/browser';
import { describe, expect, it, vi } from 'vitest';
import { checkManifest } from '../../src/verify/mcpb/check-manifest.js';
import { COMPOSED_AS, expandLaunch } from '../../src/verify/mcpb/expand-config.js';
import { FIXTURES } from '../helpers/run-toolrun.js';

const MANIFESTS = join(FIXTURES, 'mcpb/manifests');

async function manifestOf(name: string): Promise<{ folder: string; manifest: McpbManifestAny }> {
  const folder = join(MANIFESTS, name);
  const checked = await checkManifest(folder, { platform: 'darwin' });
  if (!checked.manifest) throw new Error(JSON.stringify(checked.fileFindings));
  return { folder, manifest: checked.manifest };
}

const NODE_NOTE = {
  level: 'note',
  rule: 'mcpb/node-runtime',
  path: 'manifest.json:server.mcp_config.command',
  message: `"node" runs as ${process.execPath} (Node ${process.version}), the Node running toolrun; Claude Desktop uses its built-in Node: check the bundle under that version too if they differ`,
};

describe('expandLaunch', () => {
  it("expands an array user_config into several arguments, with the defaults, HOME's folders and the Node running toolrun", async () => {
    const { folder, manifest } = await manifestOf('dirs-array');
    const expanded = await expandLaunch(manifest, { folder, userConfig: { dirs: '/srv/a:/srv/b' }, platform: 'linux', home: '/home/ada' });
    expect(expanded.composedAs).toEqual(COMPOSED_AS);
    expect(expanded.launch).toEqual({
      transport: 'stdio',
      command: process.execPath,
      args: [`${folder}/server/index.js`, '/srv/a', '/srv/b', '--port=8080', '--verbose=false', '--downloads=/home/ada/Downloads', '--token=${user_config.token}'],
      env: { DESKTOP: '/home/ada/Desktop' },
    });
    expect(expanded.findings).toEqual([
      NODE_NOTE,
      {
        level: 'warning',
        rule: 'mcpb/unexpanded-variable',
        path: 'manifest.json:server.mcp_config.args',
        message: '${user_config.token} in args has no value and stays as written: give it (--user-config token=VALUE) or a default in the manifest',
      },
    ]);
  });

  it('takes an array as given, and typed values converted', async () => {
    const { folder, manifest } = await manifestOf('dirs-array');
    const expanded = await expandLaunch(manifest, { folder, userConfig: { dirs: ['/x y', '/z'], port: '9000', verbose: 'true', token: 't0k' }, platform: 'linux', home: '/home/ada' });
    expect(expanded.launch?.transport === 'stdio' && expanded.launch.args.slice(1)).toEqual(['/x y', '/z', '--port=9000', '--verbose=true', '--downloads=/home/ada/Downloads', '--token=t0k']);
    expect(expanded.findings).toEqual([NODE_NOTE]);
  });

  it('names a required user_config with no value and no default, and composes nothing', async () => {
    const { folder, manifest } = await manifestOf('dirs-array');
    expect(await expandLaunch(manifest, { folder, userConfig: {}, platform: 'linux' })).toEqual({
      composedAs: COMPOSED_AS,
      findings: [
        {
          level: 'error',
          rule: 'mcpb/user-config',
          path: 'manifest.json:user_config.dirs',
          message: 'user_config.dirs is required and has no value or default: give it with --user-config dirs=VALUE',
        },
      ],
    });
  });

  it('counts a default as the value of a required user_config', async () => {
    const { folder, manifest } = await manifestOf('required-user-config');
    const missing = await expandLaunch(manifest, { folder, userConfig: {}, platform: 'linux' });
    expect(missing.launch).toBeUndefined();
    expect(missing.findings.map((finding) => finding.path)).toEqual(['manifest.json:user_config.api_key']);
    const given = await expandLaunch(manifest, { folder, userConfig: { api_key: 'sk-1' }, platform: 'linux' });
    expect(given.launch).toEqual({ transport: 'stdio', command: process.execPath, args: [`${folder}/server/index.js`], env: { API_KEY: 'sk-1', REGION: 'eu' } });
  });

  it('says which given values are wrong or unknown', async () => {
    const { folder, manifest } = await manifestOf('dirs-array');
    const expanded = await expandLaunch(manifest, { folder, userConfig: { dirs: '/a', port: '70000', verbose: 'yes', colour: 'red' }, platform: 'linux' });
    expect(expanded.findings.filter((finding) => finding.rule === 'mcpb/user-config').map(({ level, message }) => [level, message])).toEqual([
      ['error', 'user_config.port="70000" is outside 1..65535: give a number in that range'],
      ['error', 'user_config.verbose="yes" is not a boolean: give true or false'],
      ['warning', 'user_config.colour is given but the manifest declares only user_config.dirs, user_config.port, user_config.verbose, user_config.token: check the name'],
    ]);
  });

  it("applies the checked platform's override: command, args and env each replaced whole", async () => {
    const { folder, manifest } = await manifestOf('platform-overrides');
    expect((await expandLaunch(manifest, { folder, userConfig: {}, platform: 'win32', home: 'C:\\Users\\ada' })).launch).toEqual({
      transport: 'stdio',
      command: `${folder}\\bin\\server.exe`,
      args: ['--log', 'C:\\Users\\ada\\server.log'],
      env: { MODE: 'windows' },
    });
    expect((await expandLaunch(manifest, { folder, userConfig: {}, platform: 'darwin', home: '/Users/ada' })).launch).toEqual({
      transport: 'stdio',
      command: `${folder}/bin/server`,
      args: ['--log', '/Users/ada/Documents/server.log'],
      env: { MODE: 'default', KEEP: 'yes' },
    });
    const linux = await expandLaunch(manifest, { folder, userConfig: {}, platform: 'linux', home: '/home/ada' });
    expect(linux.launch).toEqual({ transport: 'stdio', command: `${folder}/bin/server`, args: ['--log', '/home/ada/server.log'], env: { MODE: 'default', KEEP: 'yes' } });
    expect(linux.findings).toEqual([]);
  });

  it('runs python and uv commands as written, and names a variable the host does not define', async () => {
    const manifest = {
      manifest_version: '0.4',
      name: 'py',
      version: '1.0.0',
      description: 'A Python bundle',
      author: { name: 'toolrun' },
      server: { type: 'python', entry_point: 'server/main.py', mcp_config: { command: 'python', args: ['${__dirname}/server/main.py', '--cache=${CACHE}'], env: { PYTHONPATH: '${__dirname}/lib' } } },
    } as McpbManifestAny;
    const expanded = await expandLaunch(manifest, { folder: '/b', userConfig: {}, platform: 'linux' });
    expect(expanded.launch).toEqual({ transport: 'stdio', command: 'python', args: ['/b/server/main.py', '--cache=${CACHE}'], env: { PYTHONPATH: '/b/lib' } });
    expect(expanded.findings.map(({ level, path, message }) => [level, path, message])).toEqual([
      [
        'warning',
        'manifest.json:server.mcp_config.args',
        '${CACHE} in args is not a variable the host defines and stays as written: use __dirname, HOME, DESKTOP, DOCUMENTS, DOWNLOADS, pathSeparator, / or user_config.X',
      ],
    ]);
  });

  it('says a list inside a string stays as written, as the toolkit leaves it', async () => {
    const { folder, manifest } = await manifestOf('dirs-array');
    const joined = { ...manifest, server: { ...manifest.server, mcp_config: { command: 'node', args: ['--dirs=${user_config.dirs}'] } } } as McpbManifestAny;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const expanded = await expandLaunch(joined, { folder, userConfig: { dirs: '/a:/b' }, platform: 'linux' });
      expect(expanded.launch?.transport === 'stdio' && expanded.launch.args).toEqual(['--dirs=${user_config.dirs}']);
      expect(expanded.findings.at(-1)!.message).toBe('${user_config.dirs} in args is a list (multiple) inside a string, which stays as written: make "${user_config.dirs}" an argument of its own');
      // The toolkit says so on the console itself (replaceVariables), which toolrun cannot turn off.
      expect(warn.mock.calls[0]![0]).toBe('Cannot replace user_config.dirs with array value in string context: "--dirs=${user_config.dirs}"');
    } finally {
      warn.mockRestore();
    }
  });
});
