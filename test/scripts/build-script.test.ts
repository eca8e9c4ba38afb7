import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInputsDigest, builtFrom, INPUTS_STAMP, inputsStamp, isBuildCurrent } from '../../scripts/build-inputs.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { tempDir } from '../helpers/temp-config.js';

/**
 * Issue #19 item 20: `npx toolrun` in a clone installs the clone into npm's npx cache as a link, and
 * npm runs its `prepare` (the whole build, type declarations included) on the clone that
 * `npm install` has just built: 84 s on a loaded machine, 4 s without it. The build script skips
 * that second build. Run on a copy of the script, so that a failure never touches the real dist/.
 */
describe('scripts/build.js as the prepare script', () => {
  const copy = () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(ROOT, 'scripts', 'build.js'), join(dir, 'scripts', 'build.js'));
    copyFileSync(join(ROOT, 'scripts', 'build-inputs.js'), join(dir, 'scripts', 'build-inputs.js'));
    copyFileSync(join(ROOT, 'scripts', 'chunks-to-commonjs.js'), join(dir, 'scripts', 'chunks-to-commonjs.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    return dir;
  };
  const built = (dir: string) => {
    mkdirSync(join(dir, 'dist', 'types'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'cli.cjs'), '// built\n');
    writeFileSync(join(dir, 'dist', 'types', 'index.d.ts'), '// built\n');
  };
  // What npm sets for a lifecycle script (npm 11: `npm install -g .` has npm_config_global=true).
  const prepare = (dir: string, command: string, env: Record<string, string> = {}) =>
    execa(process.execPath, [join(dir, 'scripts', 'build.js')], { cwd: dir, reject: false, env: { npm_command: command, npm_lifecycle_event: 'prepare', ...env } });

  it('does not build again when npx (npm exec), npm link or npm install -g . runs prepare on a folder already built', async () => {
    for (const [command, env] of [['exec'], ['link'], ['install', { npm_config_global: 'true' }]] as const) {
      const dir = copy();
      built(dir);
      const result = await prepare(dir, command, env);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(existsSync(join(dir, 'dist', 'cli.cjs'))).toBe(true);
    }
  });

  it('builds for npm install and npm ci, and for npx when nothing is built yet', async () => {
    // The copy has no src/: a build that starts fails there, after removing dist/ — which tells it started.
    for (const [command, isBuilt] of [
      ['install', true],
      ['ci', true],
      ['exec', false],
    ] as const) {
      const dir = copy();
      if (isBuilt) built(dir);
      const result = await prepare(dir, command);
      expect(result.exitCode).not.toBe(0);
      expect(existsSync(join(dir, 'dist', 'cli.cjs'))).toBe(false);
    }
  });
});

// `npm test` builds only when dist/ was not built from the sources as they are (scripts/test.js).
describe('scripts/build-inputs.js: is dist/ built from these sources?', () => {
  it('yes after a build of them; no after a source is edited, added or removed, or a bundle is missing', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'lib'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
    writeFileSync(join(dir, 'package-lock.json'), '{}\n');
    writeFileSync(join(dir, 'dist', 'cli.cjs'), '// built\n');
    writeFileSync(join(dir, 'dist', 'lib', 'index.js'), '// built\n');
    const stamp = () => writeFileSync(join(dir, INPUTS_STAMP), `${buildInputsDigest(dir)}\n`);
    expect(isBuildCurrent(dir)).toBe(false);
    stamp();
    expect(isBuildCurrent(dir)).toBe(true);
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 3;\n');
    expect(isBuildCurrent(dir)).toBe(false);
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
    expect(isBuildCurrent(dir)).toBe(true);
    writeFileSync(join(dir, 'src', 'c.ts'), '');
    expect(isBuildCurrent(dir)).toBe(false);
    rmSync(join(dir, 'src', 'c.ts'));
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
    expect(isBuildCurrent(dir)).toBe(false);
    stamp();
    rmSync(join(dir, 'dist', 'lib', 'index.js'));
    expect(isBuildCurrent(dir)).toBe(false);
  });

  it('says the sources type-check only after a build that emitted the type declarations from them', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'lib'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, 'dist', 'cli.cjs'), '// built\n');
    writeFileSync(join(dir, 'dist', 'lib', 'index.js'), '// built\n');
    writeFileSync(join(dir, INPUTS_STAMP), inputsStamp(buildInputsDigest(dir), { types: false }));
    expect(builtFrom(dir)).toEqual({ current: true, typeChecked: false });
    writeFileSync(join(dir, INPUTS_STAMP), inputsStamp(buildInputsDigest(dir), { types: true }));
    expect(builtFrom(dir)).toEqual({ current: true, typeChecked: true });
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const a: number = "one";\n');
    expect(builtFrom(dir)).toEqual({ current: false, typeChecked: false });
  });

  it('tsc --emitDeclarationOnly exits non-zero on a type error, so such a build fails before it writes its stamp', async () => {
    // What the stamp's `types` rests on (scripts/build.js runs tsc with execFileSync, which throws on that exit).
    const dir = tempDir();
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { declaration: true, strict: true, outDir: 'out' }, include: ['src'] }));
    writeFileSync(join(dir, 'src', 'a.ts'), "export const a: number = 'one';\n");
    const tsc = await execa(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--emitDeclarationOnly', '-p', 'tsconfig.json'], { cwd: dir, reject: false });
    expect(tsc.exitCode).not.toBe(0);
    expect(tsc.stdout).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
  });

  it('the real build leaves the digest of what it was built from', () => {
    // npm test built dist/ (or found it built) just before the tests: it names the sources as they are.
    expect(isBuildCurrent(ROOT), 'dist/ was not built from src/ as it is now: run `npm run build` (npm test builds it when needed)').toBe(true);
  });
});
