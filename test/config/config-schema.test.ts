import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { generateConfigValidator } from '../../scripts/generate-validators.js';
import { checkConfig } from '../../src/config/check-config.js';
import { parseJsonc } from '../../src/config/parse-jsonc.js';
import { PROTOCOL_SETTINGS } from '../../src/protocol/protocol-era.js';
import { FIXTURES, ROOT } from '../helpers/run-toolrun.js';

// toolrun.schema.json (published in the package) is what editors check a config against: it must
// accept what toolrun accepts and refuse what toolrun refuses.
const schema = JSON.parse(readFileSync(join(ROOT, 'toolrun.schema.json'), 'utf8'));
// As an editor would: plain Ajv, toolrun's message annotations ignored.
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('toolrun.schema.json', () => {
  it('is what toolrun checks configs with: the precompiled validator is up to date (run node scripts/generate-validators.js)', async () => {
    const committed = readFileSync(join(ROOT, 'src/config/config-validator.generated.js'), 'utf8');
    expect(committed).toBe(await generateConfigValidator());
  });

  it('names the protocol settings toolrun knows', () => {
    expect(schema.definitions.protocol.enum).toEqual(PROTOCOL_SETTINGS);
  });

  it.each(['home.json', 'configs/everything.json', 'configs/local-tools.json'])('accepts the fixture config %s, as toolrun does', (file) => {
    const parsed = parseJsonc(readFileSync(join(FIXTURES, file), 'utf8'));
    if ('problem' in parsed) throw new Error(parsed.problem.message);
    const config = parsed.value;
    expect(checkConfig(config, null, FIXTURES).problems).toEqual([]);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts a "$schema" key', () => {
    const config = { $schema: './node_modules/toolrun/toolrun.schema.json', mcpServers: { a: { command: 'node', args: ['a.js'] } } };
    expect(checkConfig(config, null, FIXTURES).problems).toEqual([]);
    expect(validate(config)).toBe(true);
  });

  it.each([
    ['args not an array', { mcpServers: { a: { command: 'node', args: 'a.js' } } }],
    ['neither command nor url', { mcpServers: { a: { args: [] } } }],
    ['both command and url', { mcpServers: { a: { command: 'node', url: 'http://x/mcp' } } }],
    ['an unknown server type', { mcpServers: { a: { type: 'grpc', url: 'http://x' } } }],
    ['an unknown protocol', { mcpServers: { a: { command: 'node', protocol: '2099-01-01' } } }],
    ['an env value that is a number', { mcpServers: { a: { command: 'node', env: { PORT: 8080 } } } }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['a tool without implementation', { tools: [{ name: 't', description: 'd' }] }],
    ['an unknown implementation type', { tools: [{ name: 't', description: 'd', implementation: { type: 'shell' } }] }],
    ['retry attempts 0', { retry: { attempts: 0, baseDelayMs: 10 } }],
  ])('refuses %s, as toolrun does', (_what, config) => {
    expect(checkConfig(config, null, FIXTURES).problems.length).toBeGreaterThan(0);
    expect(validate(config)).toBe(false);
  });

  it.each([
    [{ slowToolMs: -1 }, 'slowToolMs', 'must be a non-negative integer, found -1'],
    [{ mcpServers: { a: { type: 'http' } } }, 'mcpServers.a.url', 'a http server needs "url", e.g. "http://127.0.0.1:3001/mcp"'],
    [{ mcpServers: { 'a:b': { command: 'x' } } }, 'mcpServers["a:b"]', "server name 'a:b' contains ':', which separates server and tool in 'SERVER:TOOL'; rename it (e.g. 'a-b')"],
    [{ mcpServers: { a: { command: 'node', env: { PORT: 8080 } } } }, 'mcpServers.a.env.PORT', 'must be a string, found number (quote it: "8080")'],
    [
      { tools: [{ name: 't', description: 'd', parameters: { type: 'array' }, implementation: { type: 'mock', mock_response: 1 } }] },
      'tools[0].parameters.type',
      'must be "object" (tool arguments are an object), found "array"',
    ],
    [{ mcpServers: { a: { command: 'x' } }, servers: { a: { command: 'y' } } }, 'servers.a', "server 'a' is defined in both mcpServers and servers; keep one"],
    [
      { mcpServers: { a: { url: 'https://x/mcp', oauth: { clientMetadataUrl: 'http://example.com/client.json' } } } },
      'mcpServers.a.oauth.clientMetadataUrl',
      'must be an https URL with a path, such as "https://example.com/toolrun-client.json" (a Client ID Metadata Document), found "http://example.com/client.json"',
    ],
    [
      { mcpServers: { a: { url: 'https://x/mcp', oauth: { clientMetadataUrl: 'https://example.com/' } } } },
      'mcpServers.a.oauth.clientMetadataUrl',
      'must be an https URL with a path, such as "https://example.com/toolrun-client.json" (a Client ID Metadata Document), found "https://example.com/"',
    ],
  ])("says what is wrong with %j in toolrun's words, at its JSON path", (config, path, message) => {
    expect(checkConfig(config, null, FIXTURES).problems).toEqual([{ path, message }]);
  });

  it('accepts a Client ID Metadata Document URL in oauth', () => {
    const config = { mcpServers: { a: { url: 'https://x/mcp', oauth: { clientMetadataUrl: 'https://example.com/oauth/toolrun.json', callbackPort: 8765 } } } };
    expect(checkConfig(config, null, FIXTURES).problems).toEqual([]);
    expect(validate(config)).toBe(true);
  });

  it('ignores a disabled entry, whatever else it holds', () => {
    const { config, problems } = checkConfig({ mcpServers: { off: { disabled: true, command: 5 }, on: { command: 'node' } } }, null, FIXTURES);
    expect(problems).toEqual([]);
    expect(Object.keys(config.servers)).toEqual(['on']);
  });
});
