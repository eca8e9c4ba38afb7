import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './run-toolrun.js';

/**
 * The two schemas CI tools validate JUnit files against (test/fixtures/junit/README.md says where
 * they come from and how to get them): a JUnit document toolrun writes must pass both.
 */
const SCHEMAS = ['junit-common.xsd', 'jenkins-junit-10.xsd', 'windyroad-JUnit.xsd'].map((name) => join(ROOT, 'test/fixtures/junit', name));
export const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

/** Validates against every schema present; says once, on stdout of the test run, what it could not check. */
export function expectValidJunit(file: string): void {
  if (!XMLLINT) return void console.log('[skip] xmllint is not installed (Debian: libxml2-utils): the JUnit XSD validation did not run');
  for (const schema of SCHEMAS) {
    if (!existsSync(schema)) {
      console.log(`[skip] ${schema} is missing (run test/fixtures/junit/fetch-schemas.sh): validated for well-formedness only`);
      execFileSync('xmllint', ['--noout', file]);
      continue;
    }
    const result = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' });
    expect(result.stderr, `${schema}\n${result.stderr}`).toContain('validates');
    expect(result.status).toBe(0);
  }
}
