import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { frameSchemaCheck, frameSchemaOutcome, validateFrames } from '../../src/conform/checks/frame-schema-check.js';
import { validateFrame } from '../../src/conform/frame-schema.js';
import type { ConformContext } from '../../src/conform/check-types.js';
import type { RecordedFrame } from '../../src/conform/probe-types.js';

const fixtures = new URL('../fixtures/conform/', import.meta.url);
const readJson = (path: string | URL): unknown => JSON.parse(readFileSync(path, 'utf8'));

// Real sessions recorded with test/fixtures/conform/capture-frames.mjs: server-everything over the
// 2025 handshake at two revisions, and the v2-SDK fixture server over 2026-07-28.
const sessions: Record<string, string> = {
  '2025-06-18': 'everything-2025-06-18.frames.json',
  '2025-11-25': 'everything-2025-11-25.frames.json',
  '2026-07-28': 'v2-server-2026-07-28.frames.json',
};
const session = (revision: string): RecordedFrame[] => readJson(new URL(sessions[revision], fixtures)) as RecordedFrame[];
const received = (message: unknown, answers?: string): RecordedFrame => ({ index: 0, direction: 'received', atMs: 0, line: 1, message, ...(answers ? { answers } : {}) });
const clone = <T>(value: T): T => structuredClone(value);

function answerTo(frames: RecordedFrame[], method: string): RecordedFrame {
  const frame = frames.find((candidate) => candidate.direction === 'received' && candidate.answers === method);
  if (!frame) throw new Error(`the fixture has no answer to ${method}`);
  return clone(frame);
}

describe.each(['2025-06-18', '2025-11-25', '2026-07-28'])('frames against the %s schema', (revision) => {
  test("a real session's frames, both ways, are all valid, and their bodies were judged", () => {
    const frames = session(revision);
    expect(frames.length).toBeGreaterThanOrEqual(20);
    const found = frames.flatMap((frame) => validateFrame(revision, frame).map((violation) => ({ index: frame.index, ...violation })));
    expect(found).toEqual([]);
    // Proof that the result bodies were judged, not only the envelopes: the same frame, broken, fails.
    const list = answerTo(frames, 'tools/list');
    delete (list.message as { result: { tools: Record<string, unknown>[] } }).result.tools[0].inputSchema;
    expect(validateFrame(revision, list).length).toBeGreaterThan(0);
  });

  test('a tools/list result whose tool has no inputSchema: path result.tools[0], naming inputSchema', () => {
    const list = answerTo(session(revision), 'tools/list');
    delete (list.message as { result: { tools: Record<string, unknown>[] } }).result.tools[0].inputSchema;
    expect(validateFrame(revision, list)).toEqual([{ path: 'result.tools[0]', message: "must have required property 'inputSchema'", definition: 'ListToolsResult' }]);
  });

  test('a wrong jsonrpc version is one violation of the envelope, at jsonrpc', () => {
    const list = answerTo(session(revision), 'tools/list');
    (list.message as Record<string, unknown>).jsonrpc = '1.0';
    expect(validateFrame(revision, list)).toEqual([{ path: 'jsonrpc', message: 'must be "2.0" (got "1.0")', definition: expect.stringMatching(/^JSONRPC(Result)?Response$/) }]);
  });

  test('a notification with a wrong jsonrpc and a request id of the wrong type', () => {
    expect(validateFrame(revision, received({ jsonrpc: 2, method: 'notifications/tools/list_changed' }))).toEqual([
      expect.objectContaining({ path: 'jsonrpc', message: 'must be string (got 2)' }),
      expect.objectContaining({ path: 'jsonrpc', message: 'must be "2.0" (got 2)' }),
    ]);
    const request = received({ jsonrpc: '2.0', id: { nested: true }, method: 'ping' });
    expect(validateFrame(revision, request)).toContainEqual(expect.objectContaining({ path: 'id', definition: 'JSONRPCRequest' }));
  });

  test('an error response with a code that is not an integer', () => {
    const violations = validateFrame(revision, received({ jsonrpc: '2.0', id: 3, error: { code: 'oops', message: 'no' } }, 'tools/call'));
    expect(violations).toEqual([{ path: 'error.code', message: 'must be integer (got "oops")', definition: expect.stringMatching(/^JSONRPCError(Response)?$/) }]);
  });

  test('a method the revision does not define: the envelope is judged, the body is not', () => {
    expect(validateFrame(revision, received({ jsonrpc: '2.0', id: 9, method: 'vendor/thing', params: { anything: [1] } }))).toEqual([]);
    expect(validateFrame(revision, received({ jsonrpc: '2.0', id: 9, result: 42 }, 'vendor/thing'))).toEqual([expect.objectContaining({ path: 'result', message: 'must be object (got 42)' })]);
    // No id matched: what it answers is unknown, so only the envelope counts.
    const list = answerTo(session(revision), 'tools/list');
    delete (list.message as { result: { tools: Record<string, unknown>[] } }).result.tools[0].inputSchema;
    expect(validateFrame(revision, { ...list, answers: undefined })).toEqual([]);
  });

  test('a union (a content block) is said as the failure of the branch the value meant, not of every branch', () => {
    const call = { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 7 }, { type: 'image', data: 'iVBORw0KGgo=' }, { type: 'bogus' }] } };
    if (revision === '2026-07-28') (call.result as Record<string, unknown>).resultType = 'complete';
    expect(validateFrame(revision, received(call, 'tools/call'))).toEqual([
      { path: 'result.content[0].text', message: 'must be string (got 7) (as TextContent)', definition: 'CallToolResult' },
      { path: 'result.content[1]', message: "must have required property 'mimeType' (as ImageContent)", definition: 'CallToolResult' },
      { path: 'result.content[2].type', message: expect.stringMatching(/^must be one of "text", "image", "audio", .*"resource" \(got "bogus"\)$/), definition: 'CallToolResult' },
    ]);
  });

  test('a frame that is not JSON is left to the stdout purity check; a JSON value that is no message is not', () => {
    expect(validateFrame(revision, { index: 0, direction: 'received', atMs: 0, line: 3, message: undefined, raw: 'Server started' })).toEqual([]);
    expect(validateFrame(revision, received('hello'))).toEqual([{ path: '', message: 'must be a JSON-RPC message object', definition: 'JSONRPCMessage' }]);
    expect(validateFrame(revision, received({ jsonrpc: '2.0', id: 1 }))).toEqual([
      { path: '', message: "must be a request, a notification or a response (has no 'method', 'result' or 'error')", definition: 'JSONRPCMessage' },
    ]);
  });
});

describe('the handshake of each era', () => {
  test.each(['2025-06-18', '2025-11-25'])('%s: an initialize result without protocolVersion', (revision) => {
    const initialize = answerTo(session(revision), 'initialize');
    delete (initialize.message as { result: Record<string, unknown> }).result.protocolVersion;
    expect(validateFrame(revision, initialize)).toEqual([{ path: 'result', message: "must have required property 'protocolVersion'", definition: 'InitializeResult' }]);
  });

  test('2026-07-28: initialize is not a method of the revision (envelope only); server/discover without supportedVersions is caught', () => {
    const initializeResult = answerTo(session('2025-11-25'), 'initialize');
    (initializeResult.message as { result: Record<string, unknown> }).result.resultType = 'complete';
    expect(validateFrame('2026-07-28', initializeResult)).toEqual([]);
    const discover = answerTo(session('2026-07-28'), 'server/discover');
    delete (discover.message as { result: Record<string, unknown> }).result.supportedVersions;
    expect(validateFrame('2026-07-28', discover)).toEqual([{ path: 'result', message: "must have required property 'supportedVersions'", definition: 'DiscoverResult' }]);
  });

  test('2026-07-28: a result without resultType breaks the envelope (Result requires it)', () => {
    const call = answerTo(session('2026-07-28'), 'tools/call');
    delete (call.message as { result: Record<string, unknown> }).result.resultType;
    expect(validateFrame('2026-07-28', call)).toEqual([{ path: 'result', message: "must have required property 'resultType'", definition: 'JSONRPCResultResponse' }]);
  });
});

describe('result kinds beyond XRequest → XResult', () => {
  test('2025-11-25: a task-augmented tools/call is answered by CreateTaskResult (server-everything, recorded)', () => {
    const frames = session('2025-11-25');
    const created = frames.find((frame) => frame.answers === 'tools/call' && 'task' in ((frame.message as { result?: object }).result ?? {}));
    expect(created).toBeDefined();
    expect(validateFrame('2025-11-25', created as RecordedFrame)).toEqual([]);
    const broken = clone(created as RecordedFrame);
    delete (broken.message as { result: { task: Record<string, unknown> } }).result.task.taskId;
    expect(validateFrame('2025-11-25', broken)).toEqual([{ path: 'result.task', message: "must have required property 'taskId'", definition: 'CreateTaskResult' }]);
  });

  test('2026-07-28: resultType "input_required" is judged as InputRequiredResult; "complete" as the method\'s own result', () => {
    const inputRequired = readJson(new URL('spec-examples-2026-07-28/InputRequiredResult/input-required-result-with-request-state-only.json', fixtures));
    expect(validateFrame('2026-07-28', received({ jsonrpc: '2.0', id: 1, result: inputRequired }, 'tools/call'))).toEqual([]);
    expect(validateFrame('2026-07-28', received({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', requestState: 5 } }, 'tools/call'))).toEqual([
      { path: 'result.requestState', message: 'must be string (got 5)', definition: 'InputRequiredResult' },
    ]);
    // A "complete" result with no content passes the schema's anyOf through the InputRequiredResult
    // branch (its resultType is any string); judged by resultType it is a CallToolResult without content.
    expect(validateFrame('2026-07-28', received({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }, 'tools/call'))).toEqual([
      { path: 'result', message: "must have required property 'content'", definition: 'CallToolResult' },
    ]);
  });

  test('a request with no result of its own (ping) is answered by EmptyResult', () => {
    expect(validateFrame('2025-11-25', received({ jsonrpc: '2.0', id: 2, result: {} }, 'ping'))).toEqual([]);
  });
});

describe("the specification's own 2026-07-28 examples", () => {
  const root = new URL('spec-examples-2026-07-28/', fixtures);
  const examples = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) => readdirSync(new URL(`${folder.name}/`, root)).map((file) => ({ definition: folder.name, file })));
  const methodOf: Record<string, string> = {
    CallToolResultResponse: 'tools/call',
    ListToolsResultResponse: 'tools/list',
    DiscoverResultResponse: 'server/discover',
    GetPromptResultResponse: 'prompts/get',
    ReadResourceResultResponse: 'resources/read',
  };

  test.each(examples.filter(({ definition }) => definition !== 'InputRequiredResult'))('$definition/$file is valid', ({ definition, file }) => {
    const message = readJson(new URL(`${definition}/${file}`, root));
    const violations = validateFrame('2026-07-28', received(message, methodOf[definition]));
    if (file === 'read-resource-result-response.json') {
      // The spec's example omits ttlMs and cacheScope, which ReadResourceResult (a CacheableResult)
      // requires: it passes the schema's anyOf only as an InputRequiredResult. Judged by its
      // resultType ("complete"), toolrun names the two missing fields.
      expect(violations.map((violation) => violation.message)).toEqual(["must have required property 'cacheScope'", "must have required property 'ttlMs'"]);
      return;
    }
    expect(violations).toEqual([]);
  });
});

describe('a revision toolrun has no schema for', () => {
  test('is one violation saying so, never a guess from a neighbour', () => {
    expect(validateFrame('2024-01-01', received({ jsonrpc: '2.0', id: 1, result: {} }, 'ping'))).toEqual([
      {
        path: '',
        message: expect.stringMatching(/^toolrun has no JSON Schema for protocol revision 2024-01-01 \(it has 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28\)$/),
        definition: '',
      },
    ]);
    expect(validateFrame('../../etc', received({ jsonrpc: '2.0', id: 1, result: {} }))).toHaveLength(1);
  });
});

describe('the schema.frames check', () => {
  const context = (revision: string, frames: RecordedFrame[]) => ({ channel: { protocolVersion: revision, frames } }) as unknown as ConformContext;

  test('passes a clean session, saying how many frames were checked against which revision', async () => {
    const frames = session('2025-11-25');
    const outcome = await frameSchemaCheck.run(context('2025-11-25', frames));
    expect(frameSchemaCheck).toMatchObject({ id: 'schema.frames', section: 'schema' });
    expect(outcome).toEqual({ verdict: 'pass', message: `${frames.filter((frame) => frame.direction === 'received').length} frames received, all valid against the 2025-11-25 schema` });
  });

  test('fails with one evidence per violation: the frame (cut to the part concerned when long), direction, line and path', async () => {
    const frames = session('2025-06-18');
    const list = frames.find((frame) => frame.answers === 'tools/list') as RecordedFrame;
    const broken = clone(list);
    const tools = (broken.message as { result: { tools: Record<string, unknown>[] } }).result.tools;
    delete tools[2].inputSchema;
    const patched = frames.map((frame) => (frame === list ? broken : frame));
    const outcome = await frameSchemaCheck.run(context('2025-06-18', patched));
    expect(outcome.verdict).toBe('fail');
    expect(outcome.message).toBe(`1 schema violation in 1 of ${frames.filter((frame) => frame.direction === 'received').length} frames received (revision 2025-06-18)`);
    expect(outcome.evidence).toEqual([
      {
        detail: `line ${list.line}, result of tools/list: result.tools[2] must have required property 'inputSchema' (ListToolsResult)`,
        frame: { jsonrpc: '2.0', id: (list.message as { id: number }).id, 'result.tools[2]': tools[2] },
        direction: 'received',
        line: list.line,
        path: 'result.tools[2]',
      },
    ]);
  });

  test("judges only what the server sent: toolrun's own probes may be malformed on purpose", () => {
    const sent: RecordedFrame = { index: 0, direction: 'sent', atMs: 0, message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} } };
    expect(validateFrame('2025-11-25', sent)).toContainEqual(expect.objectContaining({ path: 'params', message: "must have required property 'name'" }));
    expect(validateFrames('2025-11-25', [sent])).toEqual([]);
  });

  test('caps the evidence at 20 and says how many more there were', () => {
    const tools = Array.from({ length: 25 }, (_, index) => ({ name: `tool_${index}` }));
    const outcome = frameSchemaOutcome('2025-11-25', [received({ jsonrpc: '2.0', id: 1, result: { tools } }, 'tools/list')]);
    expect(outcome.verdict).toBe('fail');
    expect(outcome.message).toBe('25 schema violations in 1 of 1 frames received (revision 2025-11-25); the first 20 shown, 5 more not');
    expect(outcome.evidence).toHaveLength(20);
    expect(outcome.evidence?.[19]).toMatchObject({ path: 'result.tools[19]', line: 1, direction: 'received' });
  });

  test('a revision toolrun has no schema for is a skip, not a failure', () => {
    expect(frameSchemaOutcome('2099-01-01', session('2025-11-25'))).toEqual({ verdict: 'skip', message: expect.stringContaining('toolrun has no JSON Schema for protocol revision 2099-01-01') });
  });
});

describe('scripts/update-mcp-schemas.js', () => {
  test('copies each revision unchanged from a spec repository and writes its commit into the README', () => {
    const repo = mkdtempSync(join(tmpdir(), 'mcp-spec-'));
    const target = mkdtempSync(join(tmpdir(), 'mcp-schemas-'));
    try {
      const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
      git('init', '-q');
      const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
      for (const revision of revisions) {
        mkdirSync(join(repo, 'schema', revision), { recursive: true });
        writeFileSync(join(repo, 'schema', revision, 'schema.json'), `{\n    "$comment": "${revision}"\n}\n`);
      }
      git('add', '.');
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'schemas']);
      const commit = git('rev-parse', 'HEAD');
      copyFileSync(new URL('../../schemas/mcp/README.md', import.meta.url), join(target, 'README.md'));
      execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/update-mcp-schemas.js', import.meta.url)), repo, target], { stdio: 'pipe' });
      for (const revision of revisions) expect(readFileSync(join(target, revision, 'schema.json'), 'utf8')).toBe(`{\n    "$comment": "${revision}"\n}\n`);
      expect(readFileSync(join(target, 'README.md'), 'utf8')).toMatch(new RegExp(`^Commit: ${commit} \\(\\d{4}-\\d{2}-\\d{2}T`, 'm'));
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });

  test('the vendored README names the source repository and a commit', () => {
    const readme = readFileSync(new URL('../../schemas/mcp/README.md', import.meta.url), 'utf8');
    expect(readme).toContain('https://github.com/modelcontextprotocol/modelcontextprotocol');
    expect(readme).toMatch(/^Commit: [0-9a-f]{40} \(/m);
  });
});
