import { execa } from 'execa';
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { BIN, FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';
import { splitCommandWords } from '../../src/input/split-words.js';

/**
 * Issue #19 item 21b: `exec --help` showed `get-structured-content location=Paris` and the README
 * `resources read test://pixel.png`, neither of which today's server-everything takes. Every example
 * of every `--help`, of the README and of the manual's pages in docs/ that uses server-everything is
 * run here, as written, so a renamed tool, prompt, resource or argument fails this test instead of a
 * newcomer's first try.
 */

/** The help text of every command of the CLI, found from the `Commands:` sections of the help texts themselves. */
async function helpTexts(): Promise<Array<{ where: string; text: string }>> {
  const texts: Array<{ where: string; text: string }> = [];
  const visit = async (path: string[]) => {
    const text = (await runInProcess([...path, '--help'])).stdout;
    texts.push({ where: ['toolrun', ...path, '--help'].join(' '), text });
    const section = text.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
    const children = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
    await Promise.all(children.map((child) => visit([...path, child])));
  };
  await visit([]);
  return texts;
}

const withoutComment = (line: string) => line.replace(/\s+#.*$/, '');

/** The `$ toolrun …` example lines of one help text. */
const helpExamples = (help: string) => [...help.matchAll(/^ {2}\$ (.+)$/gm)].map((match) => match[1]!);

/** The commands of one markdown file: inline `toolrun …` spans and the command lines of its code blocks. */
function markdownExamples(text: string): string[] {
  const inline = [...text.matchAll(/`(toolrun [^`]+)`/g)].map((match) => match[1]!);
  const blocks = [...text.matchAll(/^```\w*\n([\s\S]*?)^```/gm)].flatMap((match) => match[1]!.split('\n'));
  const commands = blocks.map((line) => line.replace(/^\$ /, '')).filter((line) => /^(toolrun |for .*; do toolrun )/.test(line));
  return [...inline, ...commands];
}

/** The commands of the README and of every page of the manual in docs/, each with the file it is in. */
function readmeExamples(): Array<{ where: string; line: string }> {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return files.flatMap((where) => markdownExamples(readFileSync(join(ROOT, where), 'utf8')).map((line) => ({ where, line })));
}

describe('documented examples that use server-everything', () => {
  // A folder like a user's checkout: fixtures/ (the README names fixtures/configs/everything.json),
  // node_modules/ and the examples' home.json (with its servers/) as in the repository, and a
  // default config naming server-everything as `everything`.
  const cwd = tempDir();
  symlinkSync(FIXTURES, join(cwd, 'fixtures'));
  symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
  symlinkSync(join(FIXTURES, 'home.json'), join(cwd, 'home.json'));
  symlinkSync(join(FIXTURES, 'servers'), join(cwd, 'servers'));
  const config = join(cwd, 'toolrun.config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } }));
  const marker = newProcessMarker();
  const env = { ...marker.env, TOOLRUN_CONFIG: config, XDG_RUNTIME_DIR: tempDir(), XDG_CACHE_HOME: tempDir() };
  afterAll(async () => {
    await runInProcess(['session', 'stop', '--all'], { env });
    expect(await waitForNoProcesses(marker.alive)).toEqual([]);
  });

  /** Runs one example line as a shell would, `toolrun` being the built binary. */
  const runExample = (line: string) =>
    execa('bash', ['-c', `set -eo pipefail; toolrun() { "${process.execPath}" "${BIN}" "$@"; }\n${line}`], {
      cwd,
      reject: false,
      timeout: 60_000,
      stdin: 'ignore',
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, ...env },
      extendEnv: false,
    });

  /**
   * A line that is one plain toolrun command (no pipe, redirection, variable, glob or list, and not one
   * that reads stdin: a shell, a server) runs in this process, as its words: the same CLI without a node
   * start and a module load per line, which made this the suite's slowest file. The others run in bash.
   */
  const inProcessWords = (line: string): string[] | undefined => {
    const command = withoutComment(line);
    if (!command.startsWith('toolrun ') || /[|;&<>$`(){}*?\\]/.test(command)) return undefined;
    const words = splitCommandWords(command);
    if (typeof words === 'string' || words.includes('-') || ['shell', 'serve'].includes(words[1]!) || (words[1] === 'mcp' && words[2] === 'mock')) return undefined;
    return words.slice(1);
  };
  const runLine = async (line: string) => {
    const words = inProcessWords(line);
    return words ? runInProcess(words, { env, cwd }) : runExample(line);
  };

  it('every one runs and exits 0', { timeout: 180_000 }, async () => {
    // A holder keeps server-everything warm, as the session examples do: the examples check names and
    // arguments, which the holder resolves as a cold start would, in a fraction of the time.
    expect((await runInProcess(['session', 'start'], { env })).exitCode).toBe(0);
    // What server-everything offers, by name: an example naming any of it (or the server) uses it.
    const json = async (args: string[]) => JSON.parse((await runInProcess(['--json', ...args], { env })).stdout);
    const [tools, prompts, resources] = await Promise.all([json(['list', '--server', 'everything']), json(['prompts', '--server', 'everything']), json(['resources', '--server', 'everything'])]);
    const local = new Set(['echo', 'math_eval', 'get_current_datetime']);
    const names = [
      ...tools.tools.map((tool: { name: string }) => tool.name.replace(/^everything:/, '')),
      ...prompts.prompts.map((prompt: { name: string }) => prompt.name),
      ...resources.resources.map((resource: { uri: string }) => resource.uri),
    ].filter((name) => !local.has(name));
    const usesEverything = (line: string) => /\beverything(\b|__)|demo:\/\//.test(line) || line.split(/[\s:'"=]+/).some((word) => names.includes(word));
    // Examples for another server (the v2 fixture's test://greeting) are not this test's. One naming
    // another config (--config home.json) runs with that config: it must offer what the line uses.
    const forAnother = (line: string) => /--server (?!everything)/.test(line);

    const help = await helpTexts();
    const found = [...help.flatMap(({ where, text }) => helpExamples(text).map((line) => ({ where, line }))), ...readmeExamples()].filter(({ line }) => usesEverything(line) && !forAnother(line));
    // The same command shown in two places (comments aside) is run once.
    const examples = found.filter(({ line }, i) => found.findIndex((other) => withoutComment(other.line) === withoutComment(line)) === i);
    // The ones this issue found broken are among them, so the selection itself cannot quietly go empty.
    expect(examples.map(({ line }) => line)).toEqual(expect.arrayContaining([expect.stringContaining('get-structured-content'), expect.stringContaining('toolrun resources read')]));
    // The README and the manual both count: an extraction that found no page of docs/ would test nothing of it.
    expect(examples.some(({ where }) => where === 'README.md') && examples.some(({ where }) => where.startsWith('docs/'))).toBe(true);

    const failures: string[] = [];
    for (const { where, line } of examples) {
      const result = await runLine(line);
      // A p95 budget missed on a loaded machine is the machine's doing; the example's names and arguments worked.
      const overBudget = result.exitCode === 1 && /exceeds --max-p95/.test(result.stdout);
      if (result.exitCode !== 0 && !overBudget) failures.push(`${where}: ${line}\n  exit ${result.exitCode}: ${result.stderr.split('\n').slice(-2).join(' / ')}`);
    }
    expect(failures).toEqual([]);
  });
});
