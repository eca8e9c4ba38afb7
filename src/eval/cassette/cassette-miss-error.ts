import { maskThenCut } from '../../secrets/mask-secrets.js';
import type { JsonDifference } from './json-differences.js';

/** How much of each differing value the message quotes: enough to recognise a prompt, one line in all. */
const QUOTED_CHARS = 60;

/**
 * Replay met a request that no cassette of its case answers. The message names the case, the first
 * JSON path where the request differs from the closest recording of that case (fewest differences),
 * both values, and the fix. Replay makes no network call instead: a CI run never reaches a model.
 */
export class CassetteMissError extends Error {
  readonly caseName: string;
  /** The case's cassette folder (`<__cassettes__>/<case-slug>`). */
  readonly caseFolder: string;
  /** The first difference against the closest recording; undefined when the case has no recording at all. */
  readonly difference: JsonDifference | undefined;

  constructor(caseName: string, caseFolder: string, difference: JsonDifference | undefined) {
    super(missMessage(caseName, caseFolder, difference));
    this.name = 'CassetteMissError';
    this.caseName = caseName;
    this.caseFolder = caseFolder;
    this.difference = difference;
  }
}

function missMessage(caseName: string, caseFolder: string, difference: JsonDifference | undefined): string {
  const fix = 'run toolrun eval --record to record the model again';
  if (!difference) return `eval case ${JSON.stringify(caseName)}: no cassette recorded in ${caseFolder}; ${fix}`;
  const { path, actual, recorded } = difference;
  return `eval case ${JSON.stringify(caseName)}: no cassette matches this model request; the closest recorded one differs at ${path}: ${quote(actual)} (now) ≠ ${quote(recorded)} (recorded); ${fix}`;
}

function quote(value: unknown): string {
  if (value === undefined) return '(absent)';
  return maskThenCut(JSON.stringify(value), QUOTED_CHARS, '…').replace(/\s+/g, ' ');
}
