import { resolve } from 'node:path';
import { parseFaults, seededRandom } from './mock/faults.js';
import { createResponder } from './mock/mock-answers.js';
import { serveMockOverStdio } from './mock/mock-stdio.js';
import { readMockSource } from './mock/read-mock-source.js';

/**
 * `toolrun mcp mock SOURCE` over stdio before the CLI is loaded (SPEC §20: a mock answers within
 * 150 ms of its spawn; commander and every command's registration cost more than the whole mock).
 * fast-exec.ts recognises the plain forms (parseFastMock) and loads this file, built as one
 * CommonJS file (scripts/build.js). Returns undefined for anything it would refuse (a bad fault, a
 * missing source): the full CLI then runs and says why, as it does for every other form.
 */
export interface FastMockArgs {
  source: string;
  match: 'args' | 'ordered';
  faults: string[];
  seed?: string;
}

export async function runFastMock(args: FastMockArgs): Promise<number | undefined> {
  let prepared;
  try {
    const faults = parseFaults(args.faults);
    if (faults.unauthorized || faults.sessionExpiresAfter !== undefined) return undefined;
    if (args.seed !== undefined && !/^\d{1,10}$/.test(args.seed)) return undefined;
    const drawn = faults.errorRate !== undefined || faults.isErrorRate !== undefined || (faults.polluteRate !== undefined && faults.polluteRate < 1);
    if (drawn && args.seed === undefined) return undefined; // the full CLI says which seed it drew
    const book = readMockSource(resolve(process.cwd(), args.source), args.source);
    prepared = { faults, book };
  } catch {
    return undefined;
  }
  const random = seededRandom(args.seed === undefined ? 0 : Number(args.seed));
  return serveMockOverStdio(createResponder(prepared.book, args.match), prepared.faults, random, { stdin: process.stdin, stdout: process.stdout });
}
