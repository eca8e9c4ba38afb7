import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkConfig } from '../../src/config/check-config.js';
import { parseJsonc } from '../../src/config/parse-jsonc.js';
import { PROTOCOL_SETTINGS } from '../../src/protocol/protocol-era.js';
import { FIXTURES, ROOT } from '../helpers/run-toolrun.js';

// toolrun.schema.json (published in the package) is what editors check a config against: it must
// accept what toolrun accepts and refuse what toolrun refuses.
const schema = JSON.parse(readFileSync(join(ROOT, 'toolrun.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('toolrun.schema.json', () => {
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
});
