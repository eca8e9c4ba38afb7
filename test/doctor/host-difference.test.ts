import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainHostDifference, type HostDifferenceInput } from '../../src/doctor/host-difference.js';

function scene() {
  const root = mkdtempSync(join(tmpdir(), 'toolrun-difference-'));
  const mine = join(root, 'mine');
  const system = join(root, 'system');
  mkdirSync(mine);
  mkdirSync(system);
  const script = (folder: string, name: string, text: string) => {
    writeFileSync(join(folder, name), text);
    chmodSync(join(folder, name), 0o755);
  };
  const base: HostDifferenceInput = {
    title: 'Claude Desktop',
    command: 'srv',
    args: [],
    hostEnv: { PATH: system, HOME: root },
    terminalEnv: { PATH: `${mine}:${system}`, HOME: root },
    hostCwd: '/',
    terminalCwd: root,
    entryHasCwd: false,
    stderr: [],
  };
  return { root, mine, system, script, base };
}

describe('explainHostDifference', () => {
  it('names the interpreter a script runs through env when only your PATH has it, with the PATH to add', () => {
    const s = scene();
    s.script(s.system, 'srv', '#!/usr/bin/env my-interp\n');
    s.script(s.mine, 'my-interp', '#!/bin/sh\n');
    expect(explainHostDifference(s.base)).toEqual({
      finding: `\`srv\` runs \`my-interp\`, which is at ${s.mine}/my-interp, not on Claude Desktop's PATH (${s.system})`,
      fix: `add "PATH": "${s.mine}:${s.system}" to the entry's "env", or use absolute paths`,
    });
  });

  it("names a program the server's stderr says env could not find", () => {
    const s = scene();
    s.script(s.system, 'srv', '#!/bin/sh\nexec helper\n');
    s.script(s.mine, 'helper', '#!/bin/sh\n');
    const result = explainHostDifference({ ...s.base, stderr: ['/system/srv: 2: helper: not found'] });
    expect(result.finding).toBe(`\`srv\` runs \`helper\`, which is at ${s.mine}/helper, not on Claude Desktop's PATH (${s.system})`);
  });

  it('names a relative path that only resolves in your folder', () => {
    const s = scene();
    s.script(s.system, 'srv', '#!/bin/sh\n');
    writeFileSync(join(s.root, 'server.js'), '');
    const result = explainHostDifference({ ...s.base, args: ['./server.js'] });
    expect(result).toEqual({
      finding: `\`./server.js\` is a relative path: Claude Desktop starts the server in /, your terminal in ${s.root}`,
      fix: `use the absolute path ${join(s.root, 'server.js')}, or set the entry's "cwd"`,
    });
  });

  it('lists by name, never by value, the variables the host leaves out when stderr names none', () => {
    const s = scene();
    s.script(s.system, 'srv', '#!/bin/sh\n');
    const result = explainHostDifference({ ...s.base, terminalEnv: { ...s.base.terminalEnv, API_KEY: 'secret-value-123', LANG: 'C.UTF-8' }, stderr: ['boom'] });
    expect(result.finding).toContain('leaves out (API_KEY, LANG)');
    expect(JSON.stringify(result)).not.toContain('secret-value-123');
  });
});
