import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-config.js';
import { topLevelAwaitPlugin, wrapTopLevelAwait } from './wrap-top-level-await.js';

const SCRIPT = `#!/usr/bin/env node
// A server script.
/* Its imports: */
import { setTimeout as wait } from 'node:timers/promises';
import {
  argv,
} from 'node:process';

const order = [];
await wait(20).then(() => order.push('first'));
order.push('second');
console.log(order.join(' '), argv.length > 1);
export {};
`;

/** Bundles `text` as test/setup/bundle-servers.ts bundles a server, and runs the bundle. */
async function bundleAndRun(text: string) {
  const dir = tempDir();
  const entry = join(dir, 'server.mjs');
  writeFileSync(entry, text);
  await build({ entryPoints: [entry], outfile: join(dir, 'server.cjs'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', plugins: [topLevelAwaitPlugin([entry])], logLevel: 'silent' });
  return execa(process.execPath, [join(dir, 'server.cjs')], { reject: false });
}

describe('a server script with top-level await, bundled as CommonJS', () => {
  it('keeps the head, blanks the shebang, and wraps the rest in order', () => {
    const wrapped = wrapTopLevelAwait(SCRIPT, 'server.mjs');
    const [head, body] = wrapped.split('\n(async () => {\n');
    expect(head).toBe(SCRIPT.split('\n').slice(0, 8).join('\n').replace('#!/usr/bin/env node', ''));
    expect(body).toContain("const order = [];\nawait wait(20).then(() => order.push('first'));\norder.push('second');");
    expect(body).not.toContain('export {}');
  });

  it('runs each await before the next statement, as the ES module did', async () => {
    const result = await bundleAndRun(SCRIPT);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('first second true');
  });

  it('a rejection at the top level ends the process with exit 1 and the error on stderr', async () => {
    const result = await bundleAndRun("import { argv } from 'node:process';\nawait Promise.reject(new Error('broker unreachable'));\nconsole.log(argv.length);\n");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Error: broker unreachable');
  });

  it('refuses a script it cannot split rather than wrap it wrongly', () => {
    expect(() => wrapTopLevelAwait("const a = 1;\nimport { b } from 'b';\n", 'late.mjs')).toThrow("late.mjs: cannot wrap a script with an import after its code or an export: import { b } from 'b';");
    expect(() => wrapTopLevelAwait('export const a = 1;\n', 'exports.mjs')).toThrow('exports.mjs: cannot wrap a script with an import after its code or an export: export const a = 1;');
  });
});
