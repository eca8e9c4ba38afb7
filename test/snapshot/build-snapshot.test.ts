import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildSnapshot, formatSnapshot } from '../../src/snapshot/build-snapshot.js';
import { parseSnapshot } from '../../src/snapshot/read-snapshot.js';
import { readRecordingApi } from '../../src/snapshot/recording-snapshot.js';
import type { ApiSnapshot } from '../../src/snapshot/snapshot-types.js';

describe('buildSnapshot', () => {
  it('sorts each list and every key, and leaves out _meta, a resource size and lastModified', () => {
    const snapshot = buildSnapshot({
      serverName: 'srv',
      protocolVersion: '2025-11-25',
      lists: {
        tools: [
          { name: 'zeta', inputSchema: { type: 'object', properties: { b: {}, a: {} } }, _meta: { trace: 1 } },
          { name: 'alpha', inputSchema: { type: 'object' } },
        ],
        resources: [
          { uri: 'b://1', name: 'b', size: 12, annotations: { lastModified: '2026-01-01T00:00:00Z', priority: 1 } },
          { uri: 'a://1', name: 'a', annotations: { lastModified: 'x' } },
        ],
        resourceTemplates: [],
        prompts: [],
      },
    });
    expect(formatSnapshot(snapshot as ApiSnapshot)).toBe(`{
  "prompts": [],
  "protocolVersion": "2025-11-25",
  "resourceTemplates": [],
  "resources": [
    {
      "name": "a",
      "uri": "a://1"
    },
    {
      "annotations": {
        "priority": 1
      },
      "name": "b",
      "uri": "b://1"
    }
  ],
  "server": {
    "name": "srv"
  },
  "toolrunSnapshot": 1,
  "tools": [
    {
      "inputSchema": {
        "type": "object"
      },
      "name": "alpha"
    },
    {
      "inputSchema": {
        "properties": {
          "a": {},
          "b": {}
        },
        "type": "object"
      },
      "name": "zeta"
    }
  ]
}
`);
  });
});

describe('parseSnapshot', () => {
  const valid = { toolrunSnapshot: 1, server: { name: 's' }, tools: [{ name: 't' }], resources: [], resourceTemplates: [], prompts: [] };
  it('reads a snapshot and names what is wrong with one that is not', () => {
    expect(parseSnapshot(JSON.stringify(valid)).tools).toEqual([{ name: 't' }]);
    expect(() => parseSnapshot('{"toolrunSnapshot": 1,')).toThrow(/^not valid JSON \(.*\); a snapshot is the JSON document toolrun mcp snapshot SERVER prints$/);
    expect(() => parseSnapshot('{"tools": []}')).toThrow('not a toolrun snapshot: it has no "toolrunSnapshot" field (write one with: toolrun mcp snapshot SERVER > FILE)');
    expect(() => parseSnapshot(JSON.stringify({ ...valid, toolrunSnapshot: 2 }))).toThrow('snapshot format 2 is not one this toolrun reads (1); update toolrun');
    expect(() => parseSnapshot(JSON.stringify({ ...valid, prompts: {} }))).toThrow('"prompts" must be an array, found object');
    expect(() => parseSnapshot(JSON.stringify({ ...valid, tools: [{ title: 'x' }] }))).toThrow('tools[0] has no "name" string');
  });
});

describe('readRecordingApi', () => {
  const line = (dir: string, message: unknown) => JSON.stringify({ t: 1, dir, text: JSON.stringify(message) });
  const recording = (...lines: string[]) =>
    Readable.from([[JSON.stringify({ toolrun_recording: 1, server: 'cfg-name', command: 'node s.js', started: '2026-01-01T00:00:00Z' }), ...lines].join('\n') + '\n']);

  it('takes the last listing of each list, every page, matched by id; a list not asked for is absent unless not advertised', async () => {
    const source = await readRecordingApi(
      recording(
        line('send', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
        line('recv', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'real', version: '1' } } }),
        line('send', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        line('recv', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'old', inputSchema: {} }] } }),
        line('send', { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        line('send', { jsonrpc: '2.0', id: 'x', method: 'ping' }),
        'Loading...'.replace(/.*/, JSON.stringify({ t: 2, dir: 'recv', text: 'Loading...' })),
        line('recv', { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'b', inputSchema: {} }], nextCursor: 'c1' } }),
        line('send', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'c1' } }),
        line('recv', { jsonrpc: '2.0', id: 'x', result: {} }),
        line('recv', { jsonrpc: '2.0', id: 3, result: { tools: [{ name: 'a', inputSchema: {} }] } }),
      ),
      'x.rec',
    );
    expect(source.label).toBe('x.rec');
    expect(source.snapshot).toEqual({
      toolrunSnapshot: 1,
      server: { name: 'real' },
      protocolVersion: '2025-06-18',
      tools: [
        { name: 'a', inputSchema: {} },
        { name: 'b', inputSchema: {} },
      ],
      prompts: [],
    });
  });
});
