import { describe, expect, it } from 'vitest';
import { expandEnv } from '../../src/config/expand-env.js';
import { maskArgs, maskKnownSecrets, maskNamedValue, maskSecrets, maskSecretsDeep, rememberSecret } from '../../src/secrets/mask-secrets.js';
import { escapeControls, escapeOneLine } from '../../src/output/escape-controls.js';

describe('maskSecrets: one rule set for every output path (SPEC §8)', () => {
  it.each([
    ['postgres://user:password@host/db', 'postgres://user:***@host/db'],
    ['http://user:p%40ss@host:8080/mcp', 'http://user:***@host:8080/mcp'],
    ['redis://:hunter22@localhost:6379', 'redis://:***@localhost:6379'],
    ['fetch failed: http://u:pw@127.0.0.1:9/mcp?api_key=KEY123&page=2', 'fetch failed: http://u:***@127.0.0.1:9/mcp?api_key=***&page=2'],
    ['https://h/x?token=abc&sig=def&key=ghi&keep=1', 'https://h/x?token=***&sig=***&key=***&keep=1'],
    ['node server.js --token sk-abc123def456', 'node server.js --token ***'],
    ['node server.js --token plainvalue --port 3', 'node server.js --token *** --port 3'],
    ['--api-key=plainvalue', '--api-key=***'],
    ['--password hunter2', '--password ***'],
    ['using ghp_abcdefghijklmnopqrstuvwxyz0123 now', 'using *** now'],
    ['slack xoxb-1234-5678-abcdef', 'slack ***'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_part-1', 'jwt ***'],
    ['Authorization: Bearer abcdefghijkl', 'Authorization: Bearer ***'],
    ['Authorization: Bearer eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl==', 'Authorization: Bearer ***'],
    // A 401's challenge (RFC 6750 §3) carries auth-params, not a credential: doctor's auth step shows it.
    [
      'WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="read"',
      'WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="read"',
    ],
    ['Bearer realm=mcp', 'Bearer realm=mcp'],
    // A program's error quoting its environment (a --sampling-command's last stderr line).
    ['Incorrect API key; OPENAI_API_KEY=plainsecretvalue99 is set', 'Incorrect API key; OPENAI_API_KEY=*** is set'],
    ['GITHUB_TOKEN=abc DB_PASSWORD=hunter2 PORT=8080', 'GITHUB_TOKEN=*** DB_PASSWORD=*** PORT=8080'],
    ['Export it (export API_TOKEN=...) or API_TOKEN=$API_TOKEN or API_TOKEN=<value>', 'Export it (export API_TOKEN=...) or API_TOKEN=$API_TOKEN or API_TOKEN=<value>'],
  ])('%s', (text, expected) => {
    expect(maskSecrets(text)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['task-runner disk-usage', 'http://127.0.0.1:3001/mcp?page=2', 'connect ECONNREFUSED 127.0.0.1:5432', '--port 8080 --verbose']) expect(maskSecrets(text)).toBe(text);
  });

  it('masks values the config marked secret wherever they are quoted', () => {
    rememberSecret('a-config-secret-value');
    expect(maskSecrets('server said: bad credentials a-config-secret-value')).toBe('server said: bad credentials ***');
  });

  it('a ${VAR} whose name says secret: its value is masked wherever it is quoted, as it is and URL-encoded', () => {
    expandEnv('${GITHUB_TOKEN}', { GITHUB_TOKEN: 'plain value 42' }, { file: null });
    expandEnv('${REPO_NAME}', { REPO_NAME: 'octocat-hello' }, { file: null });
    expandEnv('${UNSET_TOKEN:-from default 7}', {}, { file: null });
    expect(maskSecrets('GH=plain value 42 http://h/plain%20value%2042 octocat-hello from default 7')).toBe('GH=*** http://h/*** octocat-hello ***');
    expect(maskKnownSecrets('server: plain value 42 sk-notmasked-here')).toBe('server: *** sk-notmasked-here');
  });

  it('names: env vars and headers whose name says secret are masked whole; other values by shape', () => {
    expect(maskNamedValue('API_TOKEN', 'x')).toBe('***');
    expect(maskNamedValue('Authorization', 'Bearer x')).toBe('***');
    expect(maskNamedValue('DATABASE_URL', 'postgres://user:pw@host/db')).toBe('postgres://user:***@host/db');
    expect(maskNamedValue('PORT', '5432')).toBe('5432');
  });

  it('args: the value after a secret flag', () => {
    expect(maskArgs(['--token', 'abc', '--db=postgres://u:pw@h/db', '--port', '1'])).toEqual(['--token', '***', '--db=postgres://u:***@h/db', '--port', '1']);
    // docker -e NAME=value, env assignments and header arguments (mcp-remote --header), as hosts' configs write them.
    expect(maskArgs(['-e', 'API_KEY=hunter2hunter2', '-e', 'LOG_LEVEL=debug', '--header', 'X-API-Key: abcdef123456', '--header', 'Accept: text/plain', 'http://h/mcp'])).toEqual([
      '-e',
      'API_KEY=***',
      '-e',
      'LOG_LEVEL=debug',
      '--header',
      'X-API-Key: ***',
      '--header',
      'Accept: text/plain',
      'http://h/mcp',
    ]);
  });

  it('deep: every string, except under verbatim keys; "__proto__" stays a key', () => {
    const value = JSON.parse('{"error":"http://u:pw@h/","result":"http://u:pw@h/","nested":[{"__proto__":{"x":"--token abc"}}]}');
    const masked = maskSecretsDeep(value, new Set(['result'])) as Record<string, unknown>;
    expect(JSON.stringify(masked)).toBe('{"error":"http://u:***@h/","result":"http://u:pw@h/","nested":[{"__proto__":{"x":"--token ***"}}]}');
  });
});

describe('escapeControls', () => {
  it('escapes OSC, CSI, C1 and carriage returns; keeps tab and newline', () => {
    expect(escapeControls('a\x1b]0;title\x07b\x1b[2Jc\u009bd\re\tf\ng')).toBe('a\\x1b]0;title\\x07b\\x1b[2Jc\\u009bd\\x0de\tf\ng');
  });
  it("keeps SGR colors only when asked (toolrun's own styling)", () => {
    expect(escapeControls('\x1b[31mred\x1b[39m\x1b[2J', true)).toBe('\x1b[31mred\x1b[39m\\x1b[2J');
    expect(escapeControls('\x1b[31mred', false)).toBe('\\x1b[31mred');
  });
  it('spells out the bidi embeddings, overrides and isolates (Trojan Source), issue #31 item 10', () => {
    expect(escapeControls('invoice\u202efdp.exe \u202a\u202b\u202c\u202d \u2066\u2067\u2068\u2069 \u200f kept')).toBe(
      'invoice\\u202efdp.exe \\u202a\\u202b\\u202c\\u202d \\u2066\\u2067\\u2068\\u2069 \u200f kept',
    );
    expect(escapeOneLine('a\nb\r\u202e', true)).toBe('a\\nb\\x0d\\u202e');
  });
});
