import { describe, expect, it } from 'vitest';
import { runClean } from '../helpers/processes.js';
import { writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 items 1 and 2: a server that cannot start is reported at once, named, with its fix.

/** Runs toolrun and measures how long it took (wall clock, node's own start included). */
async function timed(args: string[]) {
  const startedAt = Date.now();
  const result = await runClean(args);
  return { ...result, ms: Date.now() - startedAt };
}

describe('a server that exits at once (issue #19 item 1)', () => {
  const exitsAtOnce = { command: 'sh', args: ['-c', 'echo err >&2; exit 1'] };

  it('ends the server/discover probe at its exit, not after the probe silence (protocol auto)', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 50 }, mcpServers: { dead: exitsAtOnce } });
    const result = await timed(['--config', config, 'exec', 'dead:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('  Reason: server exited with code 1 before answering server/discover');
    expect(result.stderr).toContain('    err');
    // It waited out the 3 s probe silence before (3.6 s in all); now node's start plus the spawn.
    expect(result.ms).toBeLessThan(3000);
  });

  it('doctor reports it within a few hundred ms of its own start', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 50 }, mcpServers: { dead: exitsAtOnce } });
    const result = await runClean(['--json', '--config', config, 'mcp', 'doctor', 'dead']);
    expect(result.exitCode).toBe(4);
    const report = JSON.parse(result.stdout) as { durationMs: number; steps: Array<{ id: string; finding: string }> };
    expect(report.steps.find((step) => step.id === 'spawn')?.finding).toContain('the process started, then failed: server exited with code 1 before answering server/discover');
    // Spawn time plus the drain of its pipes: far below the 3000 ms probe silence it waited out before.
    expect(report.durationMs).toBeLessThan(1000);
  });

  it('retries fast too: three attempts take well under one probe silence', async () => {
    const config = writeTempConfig({ retry: { attempts: 3, baseDelayMs: 50 }, mcpServers: { dead: exitsAtOnce } });
    const result = await timed(['--config', config, 'exec', 'dead:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 3 attempts: server 'dead'");
    expect(result.ms).toBeLessThan(5000); // 10 s before: 3 × the probe silence
  });
});
