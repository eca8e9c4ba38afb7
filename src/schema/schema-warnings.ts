import { perRunState } from '../run-environment.js';

/**
 * Ajv's warnings about schemas it was given (`unknown format "json" ignored in schema at path …`):
 * Ajv prints them with console.warn, one raw line per schema, mid-output. toolrun collects them
 * instead; doctor turns them into one finding, other commands show them with --verbose (SPEC §9).
 */
const collectedOf = perRunState(() => new Set<string>());

let capturing: string[] | undefined;

function collect(parts: unknown[]): void {
  const warning = parts.map(String).join(' ');
  collectedOf().add(warning);
  capturing?.push(warning);
}

export const collectingAjvLogger = { log: () => {}, warn: (...parts: unknown[]) => collect(parts), error: (...parts: unknown[]) => collect(parts) };

/** Runs `compile` (synchronous), returning also the warnings Ajv gave meanwhile: a compiled schema reused later gives them again. */
export function withSchemaWarnings<T>(compile: () => T): { value: T; warnings: string[] } {
  const outer = capturing;
  const warnings: string[] = [];
  capturing = warnings;
  try {
    return { value: compile(), warnings };
  } finally {
    capturing = outer;
    outer?.push(...warnings);
  }
}

/** Collects, for this run, warnings a schema gave when it was compiled in an earlier one. */
export function addSchemaWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) collectedOf().add(warning);
}

/** The warnings collected since the last call, each once. */
export function takeSchemaWarnings(): string[] {
  const collected = collectedOf();
  const warnings = [...collected];
  collected.clear();
  return warnings;
}
