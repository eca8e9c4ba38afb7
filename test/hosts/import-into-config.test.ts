import { describe, expect, it } from 'vitest';
import { addServersToConfigText, type ServerToWrite } from '../../src/hosts/import-into-config.js';
import { parseJsonc } from '../../src/config/parse-jsonc.js';

const file = '/p/toolrun.config.json';
const github: ServerToWrite = { name: 'github', entry: { command: 'npx', args: ['-y', 'gh'], env: { TOKEN: '${GH_TOKEN}' } } };
const docs: ServerToWrite = { name: 'docs', entry: { url: 'https://example.com/mcp' } };

function add(text: string, servers: ServerToWrite[] = [github], force = false): string {
  const result = addServersToConfigText(text, servers, { force, file });
  if (!('text' in result)) throw new Error(`conflicts: ${result.conflicts.join(', ')}`);
  // Whatever the edit, the result is a config toolrun reads.
  expect(parseJsonc(result.text)).toHaveProperty('value');
  return result.text;
}

/** The text with `inserted` taken out once: what the file was, when the edit only added it. */
function without(text: string, inserted: string): string {
  const at = text.indexOf(inserted);
  expect(at).toBeGreaterThanOrEqual(0);
  return text.slice(0, at) + text.slice(at + inserted.length);
}

describe('addServersToConfigText: a JSONC edit of the target, not a rewrite', () => {
  it('keeps comments, key order and layout byte for byte; the entry goes last in mcpServers, above a closing comment', () => {
    const before = [
      '// my toolrun config',
      '{',
      '  "$schema": "./toolrun.schema.json", /* kept */',
      '  "mcpServers": {',
      '    // the home server',
      '    "zwave": { "command": "node", "args": ["z.js"] } // keep this comment on zwave\'s line',
      '    // end of servers',
      '  },',
      '  "timeoutMs": 5000',
      '}',
      '',
    ].join('\n');
    const after = add(before);
    const entry = '    "github": {\n      "command": "npx",\n      "args": [\n        "-y",\n        "gh"\n      ],\n      "env": {\n        "TOKEN": "${GH_TOKEN}"\n      }\n    }\n';
    // Only a comma after zwave's entry and the new entry itself were added.
    expect(after).toContain('"zwave": { "command": "node", "args": ["z.js"] }, // keep this comment');
    expect(without(after, entry).replace('] }, // keep', '] } // keep')).toBe(before);
    expect(after.indexOf('// end of servers')).toBeLessThan(after.indexOf('"github"'));
    expect(after.endsWith('}\n')).toBe(true);
  });

  it('detects the indentation: tabs, four spaces; keeps CRLF line endings', () => {
    const tabs = add('{\n\t"mcpServers": {\n\t\t"a": {"command": "x"}\n\t}\n}\n', [docs]);
    expect(tabs).toBe('{\n\t"mcpServers": {\n\t\t"a": {"command": "x"},\n\t\t"docs": {\n\t\t\t"url": "https://example.com/mcp"\n\t\t}\n\t}\n}\n');
    const four = add('{\r\n    "timeoutMs": 1\r\n}\r\n', [docs]);
    expect(four).toBe('{\r\n    "timeoutMs": 1,\r\n    "mcpServers": {\r\n        "docs": {\r\n            "url": "https://example.com/mcp"\r\n        }\r\n    }\r\n}\r\n');
  });

  it('an empty file, or one of only comments, becomes {"mcpServers": {…}} (comments kept above)', () => {
    expect(add('', [docs])).toBe('{\n  "mcpServers": {\n    "docs": {\n      "url": "https://example.com/mcp"\n    }\n  }\n}\n');
    expect(add('  \n', [docs])).toBe(add('', [docs]));
    expect(add('// servers go here', [docs])).toBe(`// servers go here\n${add('', [docs])}`);
  });

  it('no mcpServers: one is added as the last member (after a trailing comma too); {} and "mcpServers": {} open up', () => {
    expect(add('{\n  "timeoutMs": 1,\n}\n', [docs])).toBe('{\n  "timeoutMs": 1,\n  "mcpServers": {\n    "docs": {\n      "url": "https://example.com/mcp"\n    }\n  },\n}\n');
    expect(add('{}\n', [docs])).toBe('{\n  "mcpServers": {\n    "docs": {\n      "url": "https://example.com/mcp"\n    }\n  }\n}\n');
    expect(add('{\n  "mcpServers": {},\n  "timeoutMs": 1\n}\n', [docs])).toBe('{\n  "mcpServers": {\n    "docs": {\n      "url": "https://example.com/mcp"\n    }\n  },\n  "timeoutMs": 1\n}\n');
  });

  it('mcpServers with a trailing comma: the new entry keeps the style (a comma after it, none doubled)', () => {
    const after = add('{\n  "mcpServers": {\n    "a": {"command": "x"}, // a\n  },\n}\n', [docs]);
    expect(after).toBe('{\n  "mcpServers": {\n    "a": {"command": "x"}, // a\n    "docs": {\n      "url": "https://example.com/mcp"\n    },\n  },\n}\n');
  });

  it('a one-line (minified) file stays on one line', () => {
    expect(add('{"mcpServers":{"a":{"command":"x"}}}', [docs])).toBe('{"mcpServers":{"a":{"command":"x"}, "docs": {"url":"https://example.com/mcp"}}}');
  });

  it('several servers in one edit, in order; VS Code "servers" names count as taken', () => {
    const after = add('{\n  "mcpServers": {}\n}\n', [github, docs]);
    expect(Object.keys((parseJsonc(after) as { value: { mcpServers: object } }).value.mcpServers)).toEqual(['github', 'docs']);
    expect(addServersToConfigText('{"servers": {"docs": {"url": "u"}}}', [github, docs], { force: false, file })).toEqual({ conflicts: ['docs'] });
  });

  it('a name already there is a conflict (nothing changed); with force its value is replaced in place', () => {
    const before = '{\n  "mcpServers": {\n    "docs": { "command": "old" }, // old docs\n    "z": {"command": "z"}\n  }\n}\n';
    expect(addServersToConfigText(before, [github, docs], { force: false, file })).toEqual({ conflicts: ['docs'] });
    const result = addServersToConfigText(before, [docs], { force: true, file });
    expect(result).toEqual({ text: '{\n  "mcpServers": {\n    "docs": {"url":"https://example.com/mcp"}, // old docs\n    "z": {"command": "z"}\n  }\n}\n', replaced: ['docs'] });
  });

  it('a target that is not a config is refused with line:column, before any edit', () => {
    expect(() => addServersToConfigText('{\n  "a": }\n', [docs], { force: false, file })).toThrow(`${file}:2:8: invalid JSON`);
    expect(() => addServersToConfigText('[1]', [docs], { force: false, file })).toThrow('top level is not an object');
    expect(() => addServersToConfigText('{"mcpServers": []}', [docs], { force: false, file })).toThrow('"mcpServers" is not an object');
  });
});
