import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { ROOT, runToolrun } from '../helpers/run-toolrun.js';

// The OpenTelemetry SDK loads only with --otlp (SPEC §23; STYLE.md "New rooms": src/trace/ keeps the
// SDK behind a lazy import): a command without it reads none of the build's files that hold it, so
// `exec get_current_datetime` starts no slower. Each built file the process reads is noted by a
// preload that wraps fs.readFileSync (src/load-chunk.ts reads every chunk through it).
describe('the OpenTelemetry SDK is not on the default path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolrun-otel-load-'));
  const preload = join(dir, 'note-reads.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (typeof path === 'string' && /[\\\\/]dist[\\\\/]/.test(path)) fs.appendFileSync(process.env.READS_LOG, path + '\\n');
  return read.call(this, path, ...rest);
};
`,
  );
  // The built files that hold the SDK: the API registers itself under this global key.
  const otelFiles = readdirSync(join(ROOT, 'dist'))
    .filter((name) => name.endsWith('.cjs') && readFileSync(join(ROOT, 'dist', name), 'utf8').includes('opentelemetry.js.api'))
    .map((name) => join(ROOT, 'dist', name));

  async function builtFilesRead(args: string[], log: string): Promise<string[]> {
    writeFileSync(log, '');
    const result = await runToolrun(args, { env: { NODE_OPTIONS: `--require ${preload}`, READS_LOG: log, TRACEPARENT: undefined, OTEL_EXPORTER_OTLP_ENDPOINT: undefined } });
    expect(result.exitCode).toBe(0);
    return [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  }

  it('exec reads no file of the SDK without --otlp, and reads it with --otlp', async () => {
    expect(otelFiles.length).toBeGreaterThan(0);
    const plain = await builtFilesRead(['exec', 'get_current_datetime'], join(dir, 'plain.log'));
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((file) => otelFiles.includes(file))).toEqual([]);
    // The same check sees the SDK when it is loaded (so it can fail).
    const receiver = await startOtlpReceiver();
    try {
      const exported = await builtFilesRead(['--otlp', receiver.url, 'exec', 'get_current_datetime'], join(dir, 'otlp.log'));
      expect(exported.filter((file) => otelFiles.includes(file)).length).toBeGreaterThan(0);
      expect(receiver.spans.map((span) => span.name)).toEqual(['toolrun exec']);
    } finally {
      await receiver.stop();
    }
  });
});
