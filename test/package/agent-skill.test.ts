import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { newProcessMarker, waitForNoProcesses } from '../helpers/processes.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { FIXTURES, ROOT } from '../helpers/run-toolrun.js';
import { SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';
import { splitCommandWords } from '../../src/input/split-words.js';

/**
 * Issue 49 item 5: the SKILL.md the package ships for agents (skills/toolrun/SKILL.md) tells an agent
 * which commands to run and what their JSON holds. Every command in its code blocks is run here, as
 * written, against server-everything named as the skill names it: a renamed flag or a changed output
 * fails this test before an agent follows the skill into an error.
 */
const SKILL = join(ROOT, 'skills/toolrun/SKILL.md');
const text = readFileSync(SKILL, 'utf8');

describe('the SKILL.md for agents', () => {
  it('is an Agent Skill: frontmatter with the folder name and a description, and the package ships it', () => {
    const [, frontmatter] = /^---\n([\s\S]*?)\n---\n/.exec(text) ?? [];
    const fields = parse(frontmatter ?? '') as { name?: string; description?: string };
    // Agent Skills format (agentskills.io/specification, which the MCP Skills extension reuses): `name`
    // is the folder's name, lowercase letters, digits and hyphens, at most 64; `description` at most 1,024.
    expect(fields.name).toBe('toolrun');
    expect(fields.description?.length).toBeGreaterThan(50);
    expect(fields.description!.length).toBeLessThanOrEqual(1024);
    const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(packageJson.files).toContain('skills');
  });

  const cwd = tempDir();
  writeFileSync(join(cwd, 'toolrun.config.json'), JSON.stringify({ mcpServers: { 'my-server': { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } }));
  symlinkSync(join(FIXTURES, 'servers/conform-clean-server.js'), join(cwd, 'server.js'));
  mkdirSync(join(cwd, 'tests'));
  writeFileSync(join(cwd, 'tests/my-server.toolrun.yaml'), 'server: my-server\ntests:\n  - name: echo\n    call: echo\n    args: { message: hi }\n    expect: { text: "Echo: hi" }\n');
  const marker = newProcessMarker();
  afterAll(async () => expect(await waitForNoProcesses(marker.alive)).toEqual([]));

  it('every command in its code blocks runs as written, exits 0 and prints one JSON document', { timeout: 180_000 }, async () => {
    const blocks = [...text.matchAll(/^```\w*\n([\s\S]*?)^```/gm)].flatMap((match) => match[1]!.split('\n'));
    const commands = blocks.map((line) => line.replace(/\s+#.*$/, '')).filter((line) => line.startsWith('toolrun '));
    // The sections an agent needs are all there, so a cut of the file cannot quietly pass.
    for (const command of ['toolrun list', 'toolrun exec', 'toolrun mcp doctor', 'toolrun mcp conform', 'toolrun test'])
      expect(
        commands.some((line) => line.startsWith(command)),
        command,
      ).toBe(true);
    const failures: string[] = [];
    for (const line of commands) {
      const words = splitCommandWords(line);
      if (typeof words === 'string') throw new Error(`${line}: ${words}`);
      const result = await runInProcess(words.slice(1), { cwd, env: { ...marker.env, TOOLRUN_CONFIG: undefined, XDG_CACHE_HOME: tempDir() } });
      let json = true;
      try {
        JSON.parse(result.stdout);
      } catch {
        json = false;
      }
      if (result.exitCode !== 0 || !json) failures.push(`${line}\n  exit ${result.exitCode}, JSON ${json}: ${result.stderr.split('\n').slice(-2).join(' / ')}`);
    }
    expect(failures).toEqual([]);
  });
});
