import type { Command } from 'commander';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { hasDoubleDash } from '../cli-support/server-on-command-line.js';
import { UsageError } from '../errors.js';
import type { SkillsOptions } from './support/skills-run.js';

/** `toolrun skills list|get|read`: the MCP Skills extension (io.modelcontextprotocol/skills); the flows are in support/skills-run.ts. */
export function registerSkillsCommand(program: Command, run: CommandRunner): void {
  const skills = program
    .command('skills')
    .description("list MCP servers' skills (the Skills extension), get one's entry, read and verify its files")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun skills                                   # every server's skills
  $ toolrun skills list docs --verify                # read every file, check sha256 and size
  $ toolrun skills get docs:refunds                  # frontmatter and file list
  $ toolrun skills get docs:acme/billing/refunds     # by path when names collide
  $ toolrun skills read docs:refunds                 # SKILL.md, verified, to stdout
  $ toolrun skills read docs:refunds examples/email.md
  $ toolrun skills read docs:refunds -o skills/      # every file, under skills/docs/acme/billing/refunds/
  $ toolrun skills list --verify -- node server.js   # a server not in the config

Exit codes: 0 ok · 1 a digest, size or frontmatter does not match, an entry is invalid, or a skill
could not be fully checked within the bounds · 2 usage · 4 a server is unreachable`,
    );
  const bounds = (command: Command) =>
    command
      .option('--verify', "read every file and check its sha256 digest and size against the skill's entry")
      .option('--require-digests', 'a skill without digests (resources: "dynamic") fails instead of being reported unverifiable')
      .option('--max-skills <n>', 'at most this many skills a run (default 256)')
      .option('--max-bytes <n>', 'read at most this many bytes a run (default 64 MiB; 1.5M, 200K…)');
  bounds(
    skills
      .command('list', { isDefault: true })
      .description('skills of every server (or those named): path, files, size, description')
      .argument('[server...]', 'configured MCP servers (default: all), a URL, or -- COMMAND [ARGS...] last'),
  ).action((servers: string[], options: SkillsOptions, command: Command) => run(async (cli) => (await import('./support/skills-run.js')).runSkillsList(cli, servers, options, hasDoubleDash(command))));
  bounds(
    skills
      .command('get')
      .description("a skill's entry: its frontmatter and its files (digest, size)")
      .argument('<skill>', 'SERVER:SKILL: the skill by name, path (acme/billing/refunds) or SKILL.md URI')
      .argument('[command...]', 'after --: the command of a server not in the config')
      .option('--server <name>', 'the MCP server to ask'),
  ).action((skill: string, words: string[], options: SkillsOptions, command: Command) =>
    run(async (cli) => (await import('./support/skills-run.js')).runSkillsGet(cli, skill, wordsAfterDash(words, command), options)),
  );
  bounds(
    skills
      .command('read')
      .description("read a skill's files, each verified against the entry: SKILL.md (or FILE) to stdout, every file to -o DIR")
      .argument('<skill>', 'SERVER:SKILL: the skill by name, path or SKILL.md URI')
      .argument('[file...]', "a file of the skill (references/GUIDE.md; default SKILL.md); after --: a server's command")
      .option('--server <name>', 'the MCP server to ask')
      .option('-o, --output <dir>', 'write the files (all of them, or FILE) under DIR/SERVER/SKILL-PATH/, as exec -o writes'),
  ).action((skill: string, words: string[], options: SkillsOptions, command: Command) =>
    run(async (cli) => {
      const dashed = wordsAfterDash(words, command);
      const files = dashed ? words.slice(0, words.length - dashed.length) : words;
      if (files.length > 1) throw new UsageError(`one FILE at a time (got ${files.join(', ')}); or every file with -o DIR`);
      return (await import('./support/skills-run.js')).runSkillsRead(cli, skill, files[0], dashed, options);
    }),
  );
}

/** The words after `--` (a server's command), or undefined when there is no `--`. */
function wordsAfterDash(words: string[], command: Command): string[] | undefined {
  if (!hasDoubleDash(command)) return undefined;
  let root = command;
  while (root.parent) root = root.parent;
  const raw = (root as Command & { rawArgs: string[] }).rawArgs;
  const count = raw.length - raw.indexOf('--') - 1;
  return count > 0 ? words.slice(words.length - count) : [];
}
