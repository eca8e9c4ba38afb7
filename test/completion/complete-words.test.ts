import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE } from '../../src/completion/command-table.generated.js';
import { completeWords, type CandidateSources, type Completion, type LineSettings } from '../../src/completion/complete-words.js';

/** Sources of a config of two servers, `alpha` indexed (two tools) and `beta` never indexed; every call noted. */
function fakeSources() {
  const asked: LineSettings[] = [];
  const sourcesFor = (settings: LineSettings): CandidateSources => {
    asked.push(settings);
    return {
      servers: async () => ['alpha', 'beta'],
      remoteServers: async () => ['beta'],
      serverTools: async (server) => (server === 'alpha' ? ['whoami', 'slow'] : []),
      localTools: async () => ['get_current_datetime', 'math_eval', 'echo'],
      hosts: () => ['cursor', 'vscode'],
    };
  };
  return { asked, sourcesFor };
}

async function values(words: string[]): Promise<string[] | 'files'> {
  const completion: Completion = await completeWords(words, COMMAND_TABLE, fakeSources().sourcesFor);
  return completion.files ? 'files' : completion.candidates.map((candidate) => candidate.value);
}

describe('completeWords', () => {
  it('completes command and subcommand names, without reading any config', async () => {
    const { asked, sourcesFor } = fakeSources();
    const completion = await completeWords(['ex'], COMMAND_TABLE, sourcesFor);
    expect(completion).toEqual({ files: false, candidates: [{ value: 'exec', description: expect.stringContaining('run a tool') }] });
    expect(await values(['co'])).toEqual(['complete', 'completion']);
    expect(await values(['mcp', 'do'])).toEqual(['doctor']);
    expect(await values(['session', ''])).toEqual(['start', 'list', 'stop']);
    expect(await values(['auth', ''])).toEqual(['login', 'status', 'logout']);
    expect(await values(['hosts', ''])).toEqual(['import', 'lint']);
    expect(await values(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(asked).toEqual([]);
  });

  it("completes a command's options, then the global ones, after global options and their values", async () => {
    expect(await values(['exec', '--ser'])).toEqual(['--server']);
    expect(await values(['--config', 'x.json', '--json', 'exec', '--no-v'])).toEqual(['--no-validate']);
    // A global option after the command (commander takes it there too).
    expect(await values(['mcp', 'doctor', '--ver'])).toEqual(['--verbose', '--version']);
    expect(await values(['--js'])).toEqual(['--json']);
    expect(await values(['list', '--format', ''])).toEqual(['table', 'json', 'anthropic', 'openai']);
    expect(await values(['list', '--format=a'])).toEqual(['--format=anthropic']);
    expect(await values(['--log-level', 'e'])).toEqual(['error', 'emergency']);
    expect(await values(['--config', ''])).toBe('files');
    expect(await values(['-c', ''])).toBe('files');
    expect(await values(['--host', 'cu'])).toEqual(['cursor']);
  });

  it('completes server names where a server goes, and where a list of them goes, those not named yet', async () => {
    expect(await values(['mcp', 'doctor', ''])).toEqual(['alpha', 'beta']);
    expect(await values(['mcp', 'conform', 'b'])).toEqual(['beta']);
    expect(await values(['exec', '--server', ''])).toEqual(['alpha', 'beta']);
    expect(await values(['list', '--server=a'])).toEqual(['--server=alpha']);
    expect(await values(['session', 'start', 'alpha', ''])).toEqual(['beta']);
    // auth login: the remote (url) servers only (issue #30 item 8).
    expect(await values(['auth', 'login', ''])).toEqual(['beta']);
    // A server's arguments after it (key=value) have no candidates.
    expect(await values(['mcp', 'doctor', 'alpha', ''])).toEqual([]);
  });

  it('completes tool names: local ones, the indexed servers’ and SERVER:, SERVER:TOOL after a colon, one --server’s only', async () => {
    expect(await values(['exec', ''])).toEqual(['get_current_datetime', 'math_eval', 'echo', 'whoami', 'slow', 'alpha:', 'beta:']);
    expect(await values(['exec', 'b'])).toEqual(['beta:']);
    expect(await values(['time', 'm'])).toEqual(['math_eval']);
    expect(await values(['exec', 'alpha:'])).toEqual(['alpha:whoami', 'alpha:slow']);
    expect(await values(['exec', 'alpha:s'])).toEqual(['alpha:slow']);
    expect(await values(['exec', 'beta:'])).toEqual([]);
    expect(await values(['exec', 'nope:'])).toEqual([]);
    expect(await values(['exec', '--server', 'alpha', ''])).toEqual(['whoami', 'slow']);
    expect(await values(['mcp', 'doctor', 'alpha', '--call', 'wh'])).toEqual(['whoami']);
    // The tool's key=value arguments: nothing to offer.
    expect(await values(['exec', 'echo', ''])).toEqual([]);
  });

  it('hands the servers-choosing options of the line to the sources', async () => {
    const { asked, sourcesFor } = fakeSources();
    await completeWords(['--config=a.json', 'exec', '--server', 'alpha', ''], COMMAND_TABLE, sourcesFor);
    await completeWords(['--host', 'cursor', '--terminal-env', 'mcp', 'doctor', ''], COMMAND_TABLE, sourcesFor);
    expect(asked).toEqual([
      { terminalEnv: false, config: 'a.json', server: 'alpha' },
      { terminalEnv: true, host: 'cursor' },
    ]);
  });

  it("completes the host's servers after mcp tap --wrap HOST (and --unwrap), and the conform profiles after --profile", async () => {
    const { asked, sourcesFor } = fakeSources();
    const wrapped = await completeWords(['mcp', 'tap', '--wrap', 'cursor', ''], COMMAND_TABLE, sourcesFor);
    expect(wrapped).toMatchObject({ files: false, candidates: [{ value: 'alpha' }, { value: 'beta' }] });
    await completeWords(['mcp', 'tap', '--unwrap=vscode:project', 'a'], COMMAND_TABLE, sourcesFor);
    expect(asked).toEqual([
      { terminalEnv: false, host: 'cursor' },
      { terminalEnv: false, host: 'vscode:project' },
    ]);
    expect(await values(['mcp', 'conform', 'alpha', '--profile', ''])).toEqual(['toolrun@1', 'toolrun@2']);
    expect(await values(['mcp', 'conform', 'alpha', '--profile=t'])).toEqual(['--profile=toolrun@1', '--profile=toolrun@2']);
  });

  it('never offers a name holding a control character (a line break, ESC, a bidi override): the shell would insert it as it is', async () => {
    const sourcesFor = (): CandidateSources => ({
      servers: async () => ['ok', 'e\x1b[2J', 'n\nx'],
      remoteServers: async () => ['r\u202eexe'],
      serverTools: async () => ['fine', 'tab\tx', 'c1\u009b'],
      localTools: async () => [],
      hosts: () => [],
    });
    const offered = async (words: string[]) => ((await completeWords(words, COMMAND_TABLE, sourcesFor)) as { candidates: Array<{ value: string }> }).candidates.map((candidate) => candidate.value);
    expect(await offered(['mcp', 'doctor', ''])).toEqual(['ok']);
    expect(await offered(['auth', 'login', ''])).toEqual([]);
    expect(await offered(['exec', 'ok:'])).toEqual(['ok:fine']);
    expect(await offered(['exec', ''])).toEqual(['fine', 'ok:']);
  });

  it('leaves paths to the shell: files, after --, and nothing for an unknown option', async () => {
    expect(await values(['mcp', 'show', ''])).toBe('files');
    expect(await values(['mcp', 'tap', '--', ''])).toBe('files');
    expect(await values(['--unknown', 'ex'])).toEqual(['exec']);
    expect(await values(['exec', '--json=', ''])).toEqual(['get_current_datetime', 'math_eval', 'echo', 'whoami', 'slow', 'alpha:', 'beta:']);
    expect(await values([''])).toContain('exec');
  });

  it("completes skills: its subcommands, servers for list, SERVER: for a skill, nothing local for a skill's FILE", async () => {
    expect(await values(['skills', ''])).toEqual(['list', 'get', 'read']);
    expect(await values(['skills', 'list', ''])).toEqual(['alpha', 'beta']);
    expect(await values(['skills', 'get', ''])).toEqual(['alpha:', 'beta:']);
    expect(await values(['skills', 'read', 'a'])).toEqual(['alpha:']);
    expect(await values(['skills', 'read', 'alpha:refunds', ''])).toEqual([]);
  });
});
