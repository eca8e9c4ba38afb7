import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { plainPython, pythonWithMcp } from '../helpers/python.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 items 1 and 2: a server that cannot start is reported at once, named, with its fix.

/** Runs toolrun and measures how long it took (wall clock; in-process, so without a node start). */
async function timed(args: string[]) {
  const startedAt = Date.now();
  const result = await runCleanInProcess(args);
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
  });

  it('doctor reports it within a few hundred ms of its own start', async () => {
    const config = writeTempConfig({ retry: { attempts: 1, baseDelayMs: 50 }, mcpServers: { dead: exitsAtOnce } });
    const result = await runCleanInProcess(['--json', '--config', config, 'mcp', 'doctor', 'dead']);
    expect(result.exitCode).toBe(4);
    const report = JSON.parse(result.stdout) as { durationMs: number; steps: Array<{ id: string; finding: string }> };
    // The exit ended the server/discover probe itself: a probe that waited out its 3000 ms silence
    // would have gone on to initialize and said the server exited before answering that. (How soon is
    // the bench's question: a wall-clock bound here failed on a loaded machine.)
    expect(report.steps.find((step) => step.id === 'spawn')?.finding).toContain('the process started, then failed: server exited with code 1 before answering server/discover');
    expect(JSON.stringify(report.steps)).not.toMatch(/unanswered after|before answering initialize/);
  });

  it('retries fast too: three attempts take well under one probe silence', async () => {
    const config = writeTempConfig({ retry: { attempts: 3, baseDelayMs: 50 }, mcpServers: { dead: exitsAtOnce } });
    const result = await timed(['--config', config, 'exec', 'dead:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 3 attempts: server 'dead'");
    // Each attempt ended at the server's exit, not at the probe silence (10 s before: 3 × 3000 ms),
    // which would have gone on to initialize: said per attempt, no wall-clock bound.
    expect(result.stderr.match(/attempt \d of 3 failed \(server exited with code 1 before answering server\/discover\)/g)).toHaveLength(2);
    expect(result.stderr).not.toMatch(/unanswered after|before answering initialize/);
  });
});

type Step = { id: string; status: string; finding: string; fix?: string; details: string[]; data: Record<string, unknown> };
const stepsOf = (stdout: string) => Object.fromEntries((JSON.parse(stdout).steps as Step[]).map((step) => [step.id, step]));

/** A config of one server, retried fast: a permanent cause shows as "after 1 attempt". */
const oneServer = (entry: Record<string, unknown>) => writeTempConfig({ retry: { attempts: 3, baseDelayMs: 50 }, mcpServers: { srv: entry } });

describe('deterministic start failures outside Node are named, with their fix, and not retried (issue #19 item 2)', () => {
  const python = plainPython();

  it.skipIf(!python)('python -m a module that does not exist', async () => {
    const result = await runCleanInProcess(['--config', oneServer({ command: python, args: ['-m', 'toolrun_no_such_module'] }), 'exec', 'srv:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
    expect(result.stderr).toContain(
      "  Reason: Python has no module 'toolrun_no_such_module' to run (python -m toolrun_no_such_module: No module named toolrun_no_such_module); the server exited with code 1",
    );
    expect(result.stderr).toContain(`  Check: install the package that provides 'toolrun_no_such_module' in the Python the server runs with (pip install …), or fix the module name in "args"`);
  });

  it.skipIf(!python)('python with a script that does not exist', async () => {
    const dir = tempDir();
    const result = await runCleanInProcess(['--config', oneServer({ command: python, args: ['missing.py'], cwd: dir }), 'exec', 'srv:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
    expect(result.stderr).toContain(`  Reason: the Python script '${join(dir, 'missing.py')}' does not exist (python: can't open file); the server exited with code 2`);
    expect(result.stderr).toContain('  Check: fix the path in "args" (relative paths start at "cwd")');
  });

  it.skipIf(!python)('pip that finds no distribution of the package', async () => {
    // `--no-index` keeps it offline: the same last line pip prints for a name the index does not have.
    const result = await runCleanInProcess(['--config', oneServer({ command: python, args: ['-m', 'pip', 'install', '--no-index', 'toolrun-no-such-package'] }), 'exec', 'srv:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
    expect(result.stderr).toContain("  Reason: pip found no version of 'toolrun-no-such-package' to install (No matching distribution found); the server exited with code 1");
  });

  describe('a Python mcp 2.x server written for another version of mcp', () => {
    const withMcp = pythonWithMcp();

    it.skipIf(!withMcp)('an import of a name the installed mcp does not have (ImportError)', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'server.py'), 'from mcp.server.mcpserver import FastMCP\n\nFastMCP("old").run()\n');
      const result = await runCleanInProcess(['--config', oneServer({ command: withMcp, args: ['server.py'], cwd: dir }), 'exec', 'srv:x']);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
      expect(result.stderr).toContain(
        "  Reason: the installed Python module 'mcp.server.mcpserver' has no 'FastMCP' (ImportError): the server was written for another version of 'mcp'; the server exited with code 1",
      );
      expect(result.stderr).toContain("  Check: install the version of 'mcp' the server was written for (pip install 'mcp==VERSION'), or update the server's import of 'FastMCP'");
    });

    it.skipIf(!withMcp)('an import of a module the installed mcp does not have (ModuleNotFoundError)', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'server.py'), 'from mcp.server.fastmcp import FastMCP\n\nFastMCP("old").run()\n');
      const result = await runCleanInProcess(['--config', oneServer({ command: withMcp, args: ['server.py'], cwd: dir }), 'exec', 'srv:x']);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
      expect(result.stderr).toContain(
        "  Reason: the installed Python package 'mcp' has no module 'mcp.server.fastmcp' (ModuleNotFoundError): the server was written for another version of it; the server exited with code 1",
      );
    });
  });

  const dockerDown = (() => {
    try {
      execFileSync('docker', ['info'], { stdio: 'pipe', timeout: 20_000 });
      process.stderr.write('[skip] docker without a daemon: a Docker daemon is running here\n');
      return false;
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
      if (stderr.includes('Cannot connect to the Docker daemon')) return true;
      process.stderr.write(`[skip] docker without a daemon: no docker CLI (${(error as Error).message.split('\n')[0]})\n`);
      return false;
    }
  })();

  it.skipIf(!dockerDown)('docker without a daemon', async () => {
    const result = await runCleanInProcess(['--config', oneServer({ command: 'docker', args: ['run', '-i', '--rm', 'mcp/time'] }), 'exec', 'srv:x']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
    expect(result.stderr).toMatch(/ {2}Reason: Docker is not running: the docker command cannot reach its daemon at \S+; the server exited with code \d+/);
    expect(result.stderr).toContain('  Check: start Docker (Docker Desktop, or sudo systemctl start docker), or point DOCKER_HOST at a running daemon');
  });
});

describe('error-like lines before the stderr tail are shown, not only counted (issue #19 item 3)', () => {
  // The cause first, then 30 lines of chatter, then the exit: the tail of 20 misses it.
  const chatty = { command: 'sh', args: ['-c', 'echo "FATAL:  password authentication failed for user \\"app\\"" >&2; for i in $(seq 30); do echo "info: step $i" >&2; done; exit 1'] };

  it("in exec's failure box", async () => {
    const result = await runCleanInProcess(['--config', oneServer(chatty), 'exec', 'srv:x']);
    expect(result.exitCode).toBe(4);
    const lines = result.stderr.split('\n');
    const box = lines.indexOf('  MCP server stderr, error-like lines before the last 20:');
    expect(box).toBeGreaterThan(0);
    expect(lines.slice(box, box + 3)).toEqual([
      '  MCP server stderr, error-like lines before the last 20:',
      '    FATAL:  password authentication failed for user "app"',
      '  MCP server stderr (last 20 lines):',
    ]);
    expect(result.stderr).toContain("  Reason: the database refused the password for user 'app' (password authentication failed); the server exited with code 1");
    expect(result.stderr).toContain("✖ MCP connection failed after 1 attempt: server 'srv'");
  });

  it("in doctor's stderr step", async () => {
    const doctor = await runCleanInProcess(['--json', '--config', oneServer(chatty), 'mcp', 'doctor', 'srv']);
    expect(doctor.exitCode).toBe(4);
    const { stderr } = stepsOf(doctor.stdout);
    expect(stderr).toMatchObject({ status: 'warn', finding: '31 lines (the last 20 shown, and 1 error-like before them), 1 error-like (marked !)' });
    expect(stderr!.details.slice(0, 3)).toEqual(['! FATAL:  password authentication failed for user "app"', '  … (10 more lines not shown)', '  info: step 11']);
    expect(stderr!.data.earlier_error_lines).toEqual(['FATAL:  password authentication failed for user "app"']);
  });
});

describe("doctor's stderr step over a server that failed (issue #19 item 4)", () => {
  const python = plainPython();

  it.skipIf(!python)('counts a line that names a cause as error-like, not "no errors"', async () => {
    const doctor = await runCleanInProcess(['--json', '--config', oneServer({ command: python, args: ['-m', 'toolrun_no_such_module'] }), 'mcp', 'doctor', 'srv']);
    expect(doctor.exitCode).toBe(4);
    const { stderr } = stepsOf(doctor.stdout);
    expect(stderr).toMatchObject({ status: 'warn', finding: '1 line, 1 error-like (marked !)' });
    expect(stderr!.details).toEqual([expect.stringMatching(/^! \S*: No module named toolrun_no_such_module$/)]);
  });

  it.skipIf(!python)('marks every line of a fatal traceback that names the exception', async () => {
    const doctor = await runCleanInProcess(['--json', '--config', oneServer({ command: python, args: ['-c', 'import json; json.loads("x")'] }), 'mcp', 'doctor', 'srv']);
    expect(doctor.exitCode).toBe(4);
    const { stderr } = stepsOf(doctor.stdout);
    expect(stderr!.status).toBe('warn');
    expect(stderr!.details[0]).toBe('! Traceback (most recent call last):');
    expect(stderr!.details.at(-1)).toMatch(/^! json\.decoder\.JSONDecodeError: Expecting value/);
    expect(stderr!.finding).toMatch(/^\d+ lines, \d+ error-like \(marked !\)$/);
  });

  it('warns over a failed server whose stderr has no error word, and its fix does not say "above"', async () => {
    const doctor = await runCleanInProcess(['--json', '--config', oneServer({ command: 'sh', args: ['-c', 'echo "usage: server --port N" >&2; exit 2'] }), 'mcp', 'doctor', 'srv']);
    expect(doctor.exitCode).toBe(4);
    const steps = stepsOf(doctor.stdout);
    expect(steps.stderr).toMatchObject({ status: 'warn', finding: '1 line, none error-like; the server failed to start: read them', details: ['  usage: server --port N'] });
    // doctor prints the stderr step after the spawn step: "read the server's stderr above" was wrong here.
    expect(steps.spawn!.fix).toBe("read the server's stderr: it says why it exited");
  });
});
