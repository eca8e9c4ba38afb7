import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-toolrun.js';
import { SERVER_EVERYTHING, tempDir } from '../helpers/temp-config.js';

/**
 * Issue #47 item 13: toolrun is not on the npm registry, so `npx toolrun` in a project that has not
 * installed it fails (or would run whatever someone else publishes under that name). The install that
 * works today is the packed tarball: `npm pack` in a clone, then `npm install --save-dev
 * ./toolrun-X.tgz` in the project, after which `npx toolrun …` runs that copy, with no build step
 * there (docs/ci.md). This file plays it: the tarball of this build, installed into an empty project
 * outside the repository, runs a builtin tool and an MCP server's tool; and everything the packed
 * files load at runtime comes from `dependencies`, never from this repository's devDependencies.
 */

/** npm as a user runs it: none of the npm_* variables of an `npm test` that started this run. */
const npmEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  TOOLRUN_CONFIG: undefined,
  NO_COLOR: undefined,
  FORCE_COLOR: undefined,
  CI: undefined,
});

interface Packed {
  tarball: string;
  files: string[];
}

let packed: Packed;
beforeAll(async () => {
  const dir = tempDir();
  // --ignore-scripts: the tarball of the build under test (dist/ as the suite built it). A maintainer's
  // `npm pack` runs `prepare` first, the full build; a user's install of the tarball runs nothing.
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: npmEnv(), extendEnv: false });
  const [result] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = { tarball: join(dir, result!.filename), files: result!.files.map((file) => file.path) };
}, 120_000);

describe('the package as users install it', () => {
  it('the tarball holds what runs (bin, dist, the schemas), not the build leftovers', () => {
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/toolrun.js',
        'dist/cli.cjs',
        'dist/fast-exec.cjs',
        'dist/lib/index.js',
        'schemas/toolrun-test.schema.json',
        'toolrun.schema.json',
        'skills/toolrun/SKILL.md',
      ]),
    );
    expect(packed.files.filter((file) => file.startsWith('schemas/mcp/')).length).toBeGreaterThan(0);
    expect(packed.files.filter((file) => /^(src|test|fixtures|scripts)\//.test(file) || file.endsWith('.map') || file === 'dist/meta.json')).toEqual([]);
  });

  it('docs/ci.md shows this install, with the file name npm pack gives the tarball', () => {
    const ci = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    expect(ci).toContain(`writes ${basename(packed.tarball)}`);
    expect(ci).toContain(`npm install --save-dev ./vendor/${basename(packed.tarball)}`);
  });

  it('every package the packed files load at runtime is one of its dependencies', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const needed = new Map<string, string>();
    for (const file of packed.files.filter((path) => /\.(c|m)?js$/.test(path))) {
      const code = readFileSync(join(ROOT, file), 'utf8');
      // The bundles' runtime loads, as esbuild writes them: require("x"), import("x"), import"x", from"x".
      for (const match of code.matchAll(/(?<![\w.$])(?:require\(|import\(|import|from)"((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.@-]+)*)"/g)) {
        const specifier = match[1]!;
        if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!needed.has(name)) needed.set(name, file);
      }
    }
    expect(needed.size).toBeGreaterThan(0);
    expect([...needed].filter(([name]) => !(name in dependencies)).map(([name, file]) => `${name} (loaded by ${file})`)).toEqual([]);
  });

  // As docs/ci.md tells it: the tarball in the project's vendor/, installed with --save-dev (npm resolves
  // the dependencies' ranges: from its cache when it can, else the registry), then, as on a CI machine,
  // `npm ci` from the lockfile into a project without node_modules. ~170 packages each time: a minute
  // or two on the loaded 2-core machine.
  it('npm pack gives a tarball that installs into an empty project, and npm ci there, and runs with npx: a builtin tool and an MCP server', { timeout: 400_000 }, async () => {
    const project = join(tempDir(), 'project');
    mkdirSync(join(project, 'vendor'), { recursive: true });
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'empty-project', version: '1.0.0', private: true }, null, 2)}\n`);
    const name = basename(packed.tarball);
    copyFileSync(packed.tarball, join(project, 'vendor', name));
    const npm = (args: string[]) =>
      execa('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: project, env: npmEnv(), extendEnv: false, reject: false, timeout: 180_000 });
    const install = await npm(['install', '--save-dev', `./vendor/${name}`]);
    expect(install.exitCode, install.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies).toEqual({ toolrun: `file:vendor/${name}` });
    rmSync(join(project, 'node_modules'), { recursive: true });
    const ci = await npm(['ci']);
    expect(ci.exitCode, ci.stderr).toBe(0);
    // Installed from the file, with its runtime dependencies only: no build tool, nothing of this repository.
    const installed = join(project, 'node_modules', 'toolrun');
    expect(realpathSync(installed).startsWith(realpathSync(project))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'cli.cjs'))).toBe(true);
    for (const devOnly of ['esbuild', 'typescript', 'vitest', '@modelcontextprotocol/server-everything']) expect(existsSync(join(project, 'node_modules', devOnly)), devOnly).toBe(false);

    // Plain `npx toolrun`, as the docs show it: the project's copy. (Without one, npx in CI cannot ask to
    // download a package and fails; `npx --no toolrun --json …` would hand --json to npm.)
    const npx = (args: string[]) =>
      execa('npx', ['toolrun', ...args], { cwd: project, env: { ...npmEnv(), XDG_CACHE_HOME: tempDir() }, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
    const time = await npx(['--json', 'exec', 'get_current_datetime']);
    expect(time.exitCode, time.stderr).toBe(0);
    expect(JSON.parse(time.stdout)).toMatchObject({ success: true, tool_name: 'get_current_datetime', source: 'builtin' });

    writeFileSync(join(project, 'toolrun.config.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } }));
    const sum = await npx(['--json', 'exec', 'everything:get-sum', 'a=2', 'b=3']);
    expect(sum.exitCode, sum.stderr).toBe(0);
    expect(JSON.parse(sum.stdout)).toMatchObject({ success: true, result: 'The sum of 2 and 3 is 5.' });
  });
});
