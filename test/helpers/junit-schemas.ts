import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './run-toolrun.js';

/**
 * The schemas a JUnit document toolrun writes must pass: toolrun's own common shape and the two
 * that CI tools validate JUnit files against, committed in test/fixtures/junit (its README.md says
 * where each comes from and under which licence).
 */
export const JUNIT_SCHEMAS = ['junit-common.xsd', 'jenkins-junit-10.xsd', 'windyroad-JUnit.xsd'].map((name) => join(ROOT, 'test/fixtures/junit', name));
export const XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

/**
 * Validates against every schema. A schema missing from the repository fails the test: checking
 * well-formedness only would let a report CI tools refuse pass. Without xmllint (Debian:
 * libxml2-utils, which .ci/run installs) the validation is skipped, and says so.
 */
export function expectValidJunit(file: string): void {
  expect(
    JUNIT_SCHEMAS.filter((schema) => !existsSync(schema)),
    'JUnit schemas missing from test/fixtures/junit',
  ).toEqual([]);
  if (!XMLLINT) return void console.log('[skip] xmllint is not installed (Debian: libxml2-utils): the JUnit XSD validation did not run');
  execFileSync('xmllint', ['--noout', file]);
  for (const schema of JUNIT_SCHEMAS) {
    const result = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' });
    expect(result.stderr, `${schema}\n${result.stderr}`).toContain('validates');
    expect(result.status).toBe(0);
  }
}
