import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_EVERYTHING, fixtureServerScript } from './bundled-servers.js';

export const SERVER_EVERYTHING = BUNDLED_EVERYTHING;

/** A stdio server entry running one of fixtures/servers/ with node. */
export function fixtureServer(file: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [fixtureServerScript(file)], ...extra };
}

/** Writes a config to a fresh temp folder; returns its path. Retries are fast unless the test says otherwise. */
export function writeTempConfig(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolrun-test-'));
  const path = join(dir, 'toolrun.config.json');
  writeFileSync(path, JSON.stringify({ retry: { attempts: 3, baseDelayMs: 50 }, ...config }, null, 2));
  return path;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'toolrun-test-'));
}
