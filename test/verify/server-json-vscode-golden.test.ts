import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composeManifestAsVsCode, type VsCodeComposition } from '../../src/verify/server-json/vscode-resolver.js';
import { composePackageLaunch, composeRemoteLaunch } from '../../src/verify/server-json/compose-launch.js';
import type { ServerJsonPackage, ServerJsonTransport } from '../../src/verify/server-json/server-json-shape.js';

const FOLDER = join(import.meta.dirname, '../../fixtures/verify/vscode-golden');

interface Golden {
  source: string;
  packageType: string;
  serverJson: { packages?: ServerJsonPackage[]; remotes?: ServerJsonTransport[] };
  expected: {
    config?: Record<string, unknown>;
    inputs?: Record<string, unknown>[] | null;
    inputCount?: number;
    noticeCount?: number;
    noticeIncludes?: string[];
    throws?: string;
  };
}

const goldens = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .map((name) => [name, JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as Golden] as const);

describe("VS Code's golden cases (mcpManagementService.test.ts), through toolrun's port", () => {
  it('covers every package type and every test of the file', () => {
    expect(goldens).toHaveLength(31);
    expect(new Set(goldens.map(([, golden]) => golden.packageType))).toEqual(new Set(['npm', 'pypi', 'oci', 'nuget', 'remote']));
    for (const [, golden] of goldens) expect(golden.source).toMatch(/^microsoft\/vscode src\/vs\/platform\/mcp\/test\/common\/mcpManagementService\.test\.ts@371bbd19/);
  });

  it.each(goldens)('%s', (_, golden) => {
    if (golden.expected.throws) {
      expect(() => composeManifestAsVsCode(golden.serverJson, golden.packageType)).toThrow(golden.expected.throws);
      return;
    }
    const result: VsCodeComposition = composeManifestAsVsCode(golden.serverJson, golden.packageType);
    const config = result.config as Record<string, unknown>;
    for (const [key, value] of Object.entries(golden.expected.config ?? {})) expect({ [key]: config[key] }).toEqual({ [key]: value ?? undefined });
    if (golden.expected.inputs === null) expect(result.inputs).toBeUndefined();
    if (golden.expected.inputs) {
      expect(result.inputs).toHaveLength(golden.expected.inputs.length);
      for (const input of golden.expected.inputs) expect(result.inputs?.find((made) => made.id === input.id)).toMatchObject(input);
    }
    if (golden.expected.inputCount !== undefined) expect(result.inputs).toHaveLength(golden.expected.inputCount);
    if (golden.expected.noticeCount !== undefined) expect(result.notices).toHaveLength(golden.expected.noticeCount);
    for (const text of golden.expected.noticeIncludes ?? []) expect(result.notices[0]).toContain(text);
  });
});

describe('composeLaunch gives the golden command when nothing is asked', () => {
  it('oci: docker run -i --rm <runtime args> -e NAME image <package args>, env kept for docker to pass', () => {
    const golden = goldens.find(([name]) => name === 'oci-basic.json')![1];
    const composed = composePackageLaunch(golden.serverJson.packages![0], 0, { inputs: {} })!;
    expect(composed.entry.launch).toEqual({
      transport: 'stdio',
      command: 'docker',
      args: ['run', '-i', '--rm', '--mount', 'type=bind,src=/host/path,dst=/container/path', '-e', 'LOG_LEVEL', 'mcp/filesystem:1.0.2', '/project'],
      env: { LOG_LEVEL: 'info' },
    });
    expect(composed.entry.composedAs).toEqual({ host: 'vscode', source: 'microsoft/vscode src/vs/platform/mcp/common/mcpManagementService.ts@9d8f249284c0dd934446cd012179819db6d8e11d' });
    expect(composed.entry.findings).toEqual([]);
  });

  it('nuget: dnx id@ver --yes -- args', () => {
    const golden = goldens.find(([name]) => name === 'nuget-package-arguments.json')![1];
    const composed = composePackageLaunch(golden.serverJson.packages![0], 0, { inputs: {} })!;
    expect(composed.entry.launch).toEqual({ transport: 'stdio', command: 'dnx', args: ['Knapcode.SampleMcpServer@0.4.0-beta', '--yes', '--', 'mcp', 'start'], env: {} });
  });

  it("prompts are answered by --input, else their default: VS Code's ${input:…} never reaches the launch", () => {
    const golden = goldens.find(([name]) => name === 'variables-multiple-in-one-value.json')![1];
    const composed = composePackageLaunch(golden.serverJson.packages![0], 0, { inputs: { db_name: 'orders' } })!;
    expect(composed.entry.launch).toEqual({ transport: 'stdio', command: 'npx', args: ['test-server@1.0.0'], env: { CONNECTION_STRING: 'server=localhost;port=5432;database=orders' } });
    expect(composed.entry.findings).toEqual([]);
  });

  it('a remote: its URL and headers, the secret header value kept for the launch and handed back for masking', () => {
    const golden = goldens.find(([name]) => name === 'remote-sse-headers-variables.json')![1];
    const composed = composeRemoteLaunch(golden.serverJson.remotes![0], 0, { inputs: { api_key: 'k-123456' } });
    expect(composed.entry.launch).toEqual({ transport: 'sse', url: 'https://mcp.anonymous.modelcontextprotocol.io/sse', headers: { 'X-API-Key': 'k-123456', 'X-Region': 'us-east-1' } });
    expect(composed.secretValues).toEqual(['k-123456']);
  });
});
