import { execa, type Options } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/toolrun.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../../fixtures', import.meta.url));

/**
 * Runs the built binary as a user would: no TTY, a clean color environment, never rejecting,
 * so tests assert on exit code, stdout and stderr.
 */
export function runToolrun(args: string[], options: Options & { env?: Record<string, string | undefined> } = {}) {
  // The tool index cache of this test file's runs, not the developer's (hermetic, and a first run as on CI).
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    CI: undefined,
    TOOLRUN_CONFIG: undefined,
    // A trace context or an OTLP collector of the machine running the tests is not the test's (docs/tracing.md).
    TRACEPARENT: undefined,
    TRACESTATE: undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    XDG_CACHE_HOME: testCacheHome(),
    ...options.env,
  };
  return execa(process.execPath, [BIN, ...args], { reject: false, cwd: ROOT, timeout: 30_000, stdin: 'ignore', ...options, env, extendEnv: false });
}

let cacheHome: string | undefined;
export function testCacheHome(): string {
  cacheHome ??= mkdtempSync(join(tmpdir(), 'toolrun-cache-'));
  return cacheHome;
}
