import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { BIN, ROOT, runToolrun } from '../helpers/run-toolrun.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';
import { tabThenEnter } from '../helpers/type-in-shell.js';

/**
 * `toolrun completion bash|zsh|fish` (SPEC §17), each script loaded in the real shell and asked to
 * complete: bash by calling its completion function with COMP_WORDS set as readline sets them, zsh
 * in an interactive zsh driven through zpty (a Tab typed, the matches caught by a compadd wrapper),
 * fish with `complete -C`. The config has two servers that write a marker file when started: one is
 * indexed once by `toolrun list`, then its marker removed; no completion may start either.
 */

function shellPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) process.stderr.write(`[skip] ${name} completion: ${name} is not installed (.ci/run installs it: apt-get install ${name})\n`);
  return found || undefined;
}

const zsh = shellPath('zsh');
const fish = shellPath('fish');

let dir: string;
let config: string;
let env: Record<string, string>;
const markers = () => ['indexed.pid', 'never.pid'].filter((file) => existsSync(join(dir, file)));

beforeAll(async () => {
  config = writeTempConfig({
    mcpServers: {
      indexed: fixtureServer('pid-file-server.js', { env: { PID_FILE: 'indexed.pid' }, cwd: '.' }),
      never: fixtureServer('pid-file-server.js', { env: { PID_FILE: 'never.pid' }, cwd: '.' }),
    },
  });
  dir = dirname(config);
  // `toolrun` on PATH, as the scripts call it by the name typed.
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'toolrun'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'toolrun'), 0o755);
  const home = tempDir();
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: home, XDG_CACHE_HOME: join(home, 'cache'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), TERM: 'dumb' };
  const listed = await runInProcess(['--config', config, 'list', '--server', 'indexed'], { env });
  expect(listed.exitCode, listed.stderr).toBe(0);
  expect(listed.stdout).toMatch(/whoami +mcp:indexed/);
  expect(markers()).toEqual(['indexed.pid']);
  rmSync(join(dir, 'indexed.pid'));
});

async function script(shell: string): Promise<string> {
  const result = await runInProcess(['completion', shell], { env });
  expect(result, result.stderr).toMatchObject({ exitCode: 0, stderr: '' });
  const path = join(dir, `toolrun.${shell}`);
  writeFileSync(path, result.stdout);
  return path;
}

describe('toolrun completion', () => {
  it('an unknown shell is a usage error naming the three; --help has the install lines; __complete is hidden', async () => {
    const unknown = await runInProcess(['completion', 'powershell'], { env });
    expect(unknown).toMatchObject({ exitCode: 2, stdout: '' });
    expect(unknown.stderr).toBe("✖ unknown shell 'powershell': toolrun completion takes bash, zsh or fish");
    const help = await runInProcess(['completion', '--help'], { env });
    expect(help.stdout).toContain('source <(toolrun completion bash)');
    expect(help.stdout).toContain('toolrun completion fish > ~/.config/fish/completions/toolrun.fish');
    const top = await runInProcess(['--help'], { env });
    expect(top.stdout).toMatch(/\n {2}completion <shell> /);
    expect(top.stdout).not.toContain('__complete');
  });

  it('bash: commands, flags, servers of the config, indexed tools and SERVER:TOOL', async () => {
    const path = await script('bash');
    // Each case: the words as bash's readline splits them (at ':' and '=' too), the last being typed.
    const cases: string[][] = [
      ['toolrun', 'ex'],
      ['toolrun', 'exec', '--ser'],
      ['toolrun', '--config', config, 'mcp', 'doctor', ''],
      ['toolrun', 'exec', ''],
      ['toolrun', 'exec', 'ind'],
      ['toolrun', 'exec', 'indexed', ':', 'wh'],
      ['toolrun', 'list', '--server', '=', 'n'],
    ];
    const program = [
      `source '${path}'`,
      ...cases.map((words) => {
        const quoted = words.map((word) => `'${word}'`).join(' ');
        return `COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; COMP_LINE="\${COMP_WORDS[*]}"; COMP_POINT=\${#COMP_LINE}; _toolrun_complete; echo "\${COMPREPLY[*]}"`;
      }),
    ].join('\n');
    const output = execFileSync('bash', ['--norc', '--noprofile', '-c', program], { cwd: dir, env, encoding: 'utf8' });
    expect(output.split('\n')).toEqual(['exec', '--server', 'indexed never', 'get_current_datetime math_eval echo whoami slow indexed: never:', 'indexed:', 'whoami', 'never', '']);
    expect(markers()).toEqual([]);
  });

  it.skipIf(!zsh)('zsh: installed in fpath and loaded by compinit, a Tab typed in an interactive zsh', async () => {
    const path = await script('zsh');
    const fpathDir = join(dir, 'zfunc');
    mkdirSync(fpathDir, { recursive: true });
    execFileSync('cp', [path, join(fpathDir, '_toolrun')]);
    const out = join(dir, 'zsh-matches');
    const lines = ['toolrun ex', `toolrun --config ${config} mcp doctor `, 'toolrun exec indexed:'];
    const output = execFileSync(zsh!, ['-f', join(ROOT, 'test/helpers/complete-in-zsh.zsh'), fpathDir, out, ...lines], { cwd: dir, env, encoding: 'utf8', timeout: 15_000 });
    expect(output).toBe(['<toolrun ex>', 'exec', `<toolrun --config ${config} mcp doctor >`, 'indexed', 'never', '<toolrun exec indexed:>', 'indexed:slow', 'indexed:whoami', ''].join('\n'));
    expect(markers()).toEqual([]);
  });

  it.skipIf(!fish)('fish: complete -C on the loaded script, with the descriptions', async () => {
    const path = await script('fish');
    const lines = ['toolrun ex', 'toolrun exec --ser', `toolrun --config ${config} mcp conform `, 'toolrun time ', 'toolrun exec never:', 'toolrun --config toolrun.conf'];
    const program = [`source '${path}'`, ...lines.map((line) => `echo '<${line}>'; complete -C '${line}'`)].join('\n');
    const output = execFileSync(fish!, ['--no-config', '-c', program], { cwd: dir, env, encoding: 'utf8' });
    expect(output.split('\n')).toEqual([
      '<toolrun ex>',
      'exec\tvalidate arguments, run a tool, print its result',
      '<toolrun exec --ser>',
      '--server\tuse the tool of this MCP server, and start only that server',
      `<toolrun --config ${config} mcp conform >`,
      'indexed\tserver',
      'never\tserver',
      '<toolrun time >',
      'echo\tlocal',
      'get_current_datetime\tlocal',
      'indexed:\tserver',
      'math_eval\tlocal',
      'never:\tserver',
      'slow\tmcp:indexed',
      'whoami\tmcp:indexed',
      '<toolrun exec never:>',
      '<toolrun --config toolrun.conf>',
      'toolrun.config.json',
      '',
    ]);
    expect(markers()).toEqual([]);
  });
});

/**
 * Issue #31 item 3: names a shell could run, completed with a Tab and run with Enter in a real
 * interactive shell. The server lists tools named to run `touch` when unquoted, and names with a line
 * break or ESC; `toolrun` on PATH logs each run's words instead of running (except `__complete`).
 */
describe('completing names a shell could run: Tab then Enter runs toolrun with the name, nothing else', () => {
  const tmux = shellPath('tmux');
  let hostileDir: string;
  let hostileEnv: Record<string, string>;
  const pwned = () => readdirSync(hostileDir).filter((file) => file.startsWith('pwned'));

  beforeAll(async () => {
    const config = writeTempConfig({ mcpServers: { h: fixtureServer('hostile-names-server.js'), remote: { url: 'http://127.0.0.1:9/mcp' } } });
    hostileDir = dirname(config);
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    // __complete is the real one (and notes in $TOOLRUN_COMPLETE_LOG that it ended, so the typing waits
    // for it rather than for a fixed time); any other run logs its words (JSON, one run a line) and does nothing.
    const log = `require('fs').appendFileSync(process.env.TOOLRUN_ARGV_LOG, JSON.stringify(process.argv.slice(1)) + '\\n')`;
    writeFileSync(
      join(bin, 'toolrun'),
      `#!/bin/sh\nif [ "$1" = __complete ]; then '${process.execPath}' '${BIN}' "$@"; status=$?; echo ended >> "$TOOLRUN_COMPLETE_LOG"; exit $status; fi\nexec '${process.execPath}' -e "${log}" -- "$@"\n`,
    );
    chmodSync(join(bin, 'toolrun'), 0o755);
    const home = tempDir();
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'cursor-one': { command: 'node' }, 'cursor-two': { url: 'https://example.com/mcp' } } }));
    hostileEnv = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      TOOLRUN_CONFIG: config,
    };
    // Indexed once by a real list, so completion offers the server's tools.
    const listed = await runInProcess(['list', '--server', 'h'], { env: hostileEnv });
    expect(listed.exitCode, listed.stderr).toBe(0);
  });

  it('__complete never offers a name with a line break, ESC or another control character', async () => {
    const result = await runToolrun(['__complete', 'exec', ''], { env: hostileEnv, cwd: hostileDir });
    expect(result.exitCode).toBe(0);
    const values = result.stdout
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split('\t')[0]);
    expect(values).toEqual(expect.arrayContaining(['list_issues;touch${IFS}pwned-semicolon', 'a$(touch pwned-dollar)', 'b`touch pwned-backtick`', 'plain_tool']));
    expect(values.filter((value) => /^(nl|esc)/.test(value))).toEqual([]);
    expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it("completes the remote servers after auth login, the host's servers after mcp tap --wrap HOST, the profiles after --profile (issue #30 item 8)", async () => {
    const complete = async (...words: string[]) => {
      const result = await runToolrun(['__complete', ...words], { env: hostileEnv, cwd: hostileDir });
      return result.stdout
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split('\t')[0]);
    };
    expect(await complete('auth', 'login', '')).toEqual(['remote']);
    expect(await complete('mcp', 'tap', '--wrap', 'cursor', '')).toEqual(['cursor-one', 'cursor-two']);
    expect(await complete('mcp', 'conform', 'h', '--profile', '')).toEqual(['toolrun@1', 'toolrun@2']);
  });

  const cases: Array<[string, string]> = [
    ['toolrun exec list', 'list_issues;touch${IFS}pwned-semicolon'],
    ['toolrun exec a', 'a$(touch pwned-dollar)'],
    ['toolrun exec b', 'b`touch pwned-backtick`'],
    ['toolrun exec h:a', 'h:a$(touch pwned-dollar)'],
  ];
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const path = shell === 'bash' ? 'bash' : shell === 'zsh' ? zsh : fish;
    // Every case in bash (the shell); zsh and fish quote by themselves: two cases each.
    it.skipIf(!tmux || !path).each(shell === 'bash' ? cases : [cases[0]!, cases[3]!])(`${shell}: %s<Tab><Enter>`, async (line, name) => {
      const script = await scriptIn(shell, hostileDir, hostileEnv);
      const typed = await tabThenEnter(shell, path!, script, line, { cwd: hostileDir, env: hostileEnv });
      expect(typed.runs, typed.screen).toEqual([['exec', name]]);
      expect(pwned()).toEqual([]);
    });
  }
});

async function scriptIn(shell: string, folder: string, scriptEnv: Record<string, string>): Promise<string> {
  const result = await runInProcess(['completion', shell], { env: scriptEnv });
  expect(result.exitCode).toBe(0);
  const path = join(folder, `completion.${shell}`);
  writeFileSync(path, result.stdout);
  return path;
}
