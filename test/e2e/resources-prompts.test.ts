import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV2HttpServer, type HttpFixture } from '../helpers/http-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, SERVER_EVERYTHING, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const everything = { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] };

describe('resources and prompts (SPEC §10)', () => {
  let modernHttp: HttpFixture;
  let config: string;
  beforeAll(async () => {
    modernHttp = await startV2HttpServer({ LEGACY: 'reject' });
    config = writeTempConfig({ mcpServers: { everything, modern: fixtureServer('v2-server.js', { env: { LEGACY: 'reject' } }), modernhttp: { type: 'http', url: modernHttp.url } } });
  });
  afterAll(async () => {
    await modernHttp?.stop();
  });

  it('lists resources of server-everything, with uri, name and mime type', async () => {
    const result = await runInProcess(['--json', '--config', config, 'resources', '--server', 'everything']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).resources).toContainEqual(
      expect.objectContaining({ server: 'everything', uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mimeType: 'text/markdown' }),
    );
  });

  it('lists resource templates', async () => {
    const result = await runInProcess(['--json', '--config', config, 'resources', 'list', '--templates', '--server', 'modern']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ resourceTemplates: [expect.objectContaining({ server: 'modern', uriTemplate: 'test://notes/{id}', name: 'note' })] });
  });

  it('reads a text resource to stdout, from the one server that lists it', async () => {
    const result = await runInProcess(['--config', config, 'resources', 'read', 'demo://resource/static/document/architecture.md']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^# Everything Server – Architecture/);
  });

  it.each(['modern', 'modernhttp'])('reads text, templated and binary resources of a 2026-07-28 server (%s)', async (server) => {
    const text = await runInProcess(['--config', config, 'resources', 'read', 'test://greeting', '--server', server]);
    expect(text).toMatchObject({ exitCode: 0, stdout: 'hello from v2' });
    const templated = await runInProcess(['--config', config, 'resources', 'read', 'test://notes/42', '--server', server]);
    expect(templated.stdout).toBe('note 42');
    const file = join(tempDir(), 'pixel.png');
    const binary = await runInProcess(['--config', config, 'resources', 'read', 'test://pixel.png', '--server', server, '-o', file]);
    expect(binary.exitCode).toBe(0);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(binary.stderr).toContain(`written to ${file}`);
  });

  it("an unknown resource is exit 2 with the server's words", async () => {
    const result = await runInProcess(['--config', config, 'resources', 'read', 'test://nope', '--server', 'modern']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("✖ MCP server 'modern' answered resources/read for 'test://nope':");
  });

  it('lists prompts with their arguments, required marked', async () => {
    const result = await runInProcess(['--config', config, 'prompts', '--server', 'everything']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^everything +args-prompt +city\*, state +A prompt with two arguments/m);
  });

  it('says why a listing is empty, on stderr, and keeps stdout empty', async () => {
    const none = writeTempConfig({ mcpServers: { zwave: fixtureServer('zwave-server.js') } });
    const result = await runInProcess(['--config', none, 'prompts']);
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: 'no prompts: none of the connected servers (zwave) offers prompts' });
    const json = await runInProcess(['--json', '--config', none, 'resources']);
    expect(JSON.parse(json.stdout)).toEqual({ resources: [] });
  });

  it('gets a prompt with arguments, rendered; in both eras', async () => {
    const legacy = await runInProcess(['--config', config, 'prompts', 'get', 'everything:args-prompt', 'city=Paris']);
    expect(legacy).toMatchObject({ exitCode: 0, stdout: "user:\nWhat's weather in Paris?" });
    const modern = await runInProcess(['--json', '--config', config, 'prompts', 'get', 'ask', '--server', 'modernhttp', 'topic=MCP']);
    expect(JSON.parse(modern.stdout)).toMatchObject({ server: 'modernhttp', name: 'ask', messages: [{ role: 'user', content: { type: 'text', text: 'Tell me about MCP' } }] });
  });

  it('prompt arguments: missing, unknown and non-string ones are exit 2', async () => {
    const missing = await runInProcess(['--config', config, 'prompts', 'get', 'everything:args-prompt']);
    expect(missing).toMatchObject({ exitCode: 2 });
    expect(missing.stderr).toContain("✖ prompt 'args-prompt' needs city=… (required)");
    const unknown = await runInProcess(['--config', config, 'prompts', 'get', 'everything:args-prompt', 'city=Paris', 'zip=1']);
    expect(unknown.stderr).toContain("✖ prompt 'args-prompt' of 'everything' has no argument 'zip'; its arguments: city*, state");
    const typed = await runInProcess(['--config', config, 'prompts', 'get', 'modern:ask', 'topic:=3']);
    expect(typed.exitCode).toBe(2);
    expect(typed.stderr).toContain("prompt argument 'topic' must be a string");
  });
});

describe('exec output modes, progress and logs (SPEC §10)', () => {
  const config = () => writeTempConfig({ mcpServers: { everything, v2: fixtureServer('v2-server.js') } });

  it('prints the text of a tool that returns text and structuredContent; --structured and --raw', async () => {
    const text = await runInProcess(['--config', config(), 'exec', 'v2:add', 'a=2', 'b=3']);
    expect(text.stdout).toBe('5');
    const structured = await runInProcess(['--config', config(), 'exec', 'v2:add', 'a=2', 'b=3', '--structured']);
    expect(JSON.parse(structured.stdout)).toEqual({ sum: 5 });
    const raw = await runInProcess(['--config', config(), 'exec', 'v2:add', 'a=2', 'b=3', '--raw']);
    expect(JSON.parse(raw.stdout)).toMatchObject({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
    const json = await runInProcess(['--json', '--config', config(), 'exec', 'v2:add', 'a=2', 'b=3']);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, result: { sum: 5 } });
  });

  it('--structured on a tool without structuredContent is exit 1 with the way out', async () => {
    const result = await runInProcess(['--config', config(), 'exec', 'v2:echo', 'message=hi', '--structured']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("'echo' returned no structuredContent; run without --structured to see its content");
  });

  it('-o DIR writes an image of server-everything to a file and prints its path', async () => {
    const dir = join(tempDir(), 'out');
    const result = await runInProcess(['--config', config(), 'exec', 'get-tiny-image', '-o', dir]);
    expect(result.exitCode).toBe(0);
    const path = join(dir, 'get-tiny-image-2.png');
    expect(result.stdout).toContain(`[image/png, 4.0 kB] saved to ${path}`);
    expect(existsSync(path) && readFileSync(path).subarray(1, 4).toString()).toBe('PNG');
    // A second run keeps the first file (issue #19 item 21): the next free name, said on stderr.
    const json = await runInProcess(['--json', '--config', config(), 'exec', 'get-tiny-image', '-o', dir]);
    expect(JSON.parse(json.stdout).files).toEqual([join(dir, 'get-tiny-image-2-1.png')]);
    expect(json.stderr).toContain(`${path} exists; saved as ${join(dir, 'get-tiny-image-2-1.png')} instead`);
  });

  it('shows a resource link with the command that reads it', async () => {
    const result = await runInProcess(['--config', config(), 'exec', 'v2:link']);
    expect(result.stdout).toBe('[link test://greeting (greeting), text/plain] read it: toolrun resources read test://greeting --server v2');
  });

  it('asks for progress on every call; --verbose prints each update; log messages go to stderr with their level', async () => {
    const result = await runInProcess(['--verbose', '--config', config(), 'exec', 'v2:progress', 'steps:=2']);
    expect(result.stdout).toBe('done after 2 steps (progress token present)');
    expect(result.stderr).toContain('progress v2:progress: 1/2 (50%) step 1');
    expect(result.stderr).toContain('progress v2:progress: 2/2 (100%) step 2');
    expect(result.stderr).toContain('[v2] info (fixture): did step 2');
    const everythingRun = await runInProcess(['--verbose', '--config', config(), 'exec', 'trigger-long-running-operation', 'duration:=0.2', 'steps:=2']);
    expect(everythingRun.stderr).toContain('progress everything:trigger-long-running-operation: 2/2 (100%)');
  });
});
