import { perRunState } from '../run-environment.js';

/**
 * Ajv's warnings about schemas it was given (`unknown format "json" ignored in schema at path …`):
 * Ajv prints them with console.warn, one raw line per schema, mid-output. toolrun collects them
 * instead; doctor turns them into one finding, other commands show them with --verbose (SPEC §9).
 */
const collectedOf = perRunState(() => new Set<string>());

export const collectingAjvLogger = {
  log: () => {},
  warn: (...parts: unknown[]) => void collectedOf().add(parts.map(String).join(' ')),
  error: (...parts: unknown[]) => void collectedOf().add(parts.map(String).join(' ')),
};

/** The warnings collected since the last call, each once. */
export function takeSchemaWarnings(): string[] {
  const collected = collectedOf();
  const warnings = [...collected];
  collected.clear();
  return warnings;
}
