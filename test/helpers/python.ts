import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-toolrun.js';

// Python MCP servers are built with the `mcp` package from PyPI; .ci/run installs it in .ci/.venv.
// A machine without it skips those tests and says so on stderr.

/** A python that can `import mcp` (TOOLRUN_TEST_PYTHON, else .ci/.venv, else python3), or undefined. */
export function pythonWithMcp(): string | undefined {
  const candidates = [process.env.TOOLRUN_TEST_PYTHON, join(ROOT, '.ci', '.venv', 'bin', 'python'), 'python3'].filter((path): path is string => Boolean(path));
  for (const python of candidates) {
    if (python.includes('/') && !existsSync(python)) continue;
    try {
      execFileSync(python, ['-c', 'import mcp'], { stdio: 'ignore', timeout: 20_000 });
      return python;
    } catch {
      // Not this one.
    }
  }
  process.stderr.write('[skip] Python MCP servers: no python with the `mcp` package (.ci/run installs it in .ci/.venv)\n');
  return undefined;
}

/** A plain python3 (no packages needed), or undefined. */
export function plainPython(): string | undefined {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    process.stderr.write('[skip] python3 not found\n');
    return undefined;
  }
}
