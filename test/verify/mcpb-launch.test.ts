import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedLaunch } from '../../src/verify/verify-types.js';
import { verifyBundle } from '../../src/verify/mcpb/verify-bundle.js';
import { packMemoryBundle } from '../helpers/mcpb-bundles.js';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';

/**
 * The bar: a real .mcpb, packed by the toolkit from a real npm server, launches as composed and
 * answers the handshake; the same bundle without its node_modules fails with the server's own error.
 */

let withDependencies: string;
let withoutDependencies: string;
const disposers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  withDependencies = await packMemoryBundle(true);
  withoutDependencies = await packMemoryBundle(false);
}, 60_000);

afterAll(async () => {
  for (const dispose of disposers) await dispose();
});

async function composedLaunch(bundle: string): Promise<ComposedLaunch & { transport: 'stdio' }> {
  const { report, dispose } = await verifyBundle(bundle, { userConfig: {}, platform: 'linux' });
  disposers.push(dispose);
  expect(report.findings).toEqual([]);
  expect(report.entries[0]!.findings.map((finding) => finding.rule)).toEqual(['mcpb/node-runtime']);
  const launch = report.entries[0]!.launch!;
  if (launch.transport !== 'stdio') throw new Error('a bundle launches over stdio');
  return launch;
}

describe('a bundle launched as Claude Desktop composes it', () => {
  it('packed with its node_modules: starts and completes the MCP handshake', async () => {
    const launch = await composedLaunch(withDependencies);
    const marker = newProcessMarker();
    const client = new Client({ name: 'toolrun-test', version: '0' });
    const transport = new StdioClientTransport({ command: launch.command, args: launch.args, env: { PATH: process.env.PATH!, ...launch.env, ...marker.env }, stderr: 'pipe' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'memory-server' });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_entities');
    } finally {
      await client.close();
    }
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  it("packed without its node_modules: exits with the server's own import error", async () => {
    const launch = await composedLaunch(withoutDependencies);
    const marker = newProcessMarker();
    const child = spawn(launch.command, launch.args, { env: { PATH: process.env.PATH!, ...launch.env, ...marker.env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toContain(`Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@modelcontextprotocol/sdk' imported from ${launch.args[0]}`);
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });
});
