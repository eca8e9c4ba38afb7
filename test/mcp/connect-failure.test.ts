import { describe, expect, it } from 'vitest';
import { inferChecks } from '../../src/mcp/connect-failure.js';
import { retryDelayMs } from '../../src/mcp/connect-with-retry.js';

describe('inferred checks from a failing server', () => {
  it.each([
    ["Error: Cannot find module 'mqtt'", "module 'mqtt' not found: install the server's dependencies (npm install in its folder) or fix the path in args"],
    ['Error: connect ECONNREFUSED 127.0.0.1:1883', 'connection refused at 127.0.0.1:1883: is the service the server needs running?'],
    ['Error: listen EADDRINUSE: address already in use :::3001', 'a port the server wants is already in use: stop the other process or change the port'],
    ['Traceback (most recent call last):\n  File "server.py"', 'the server (Python) raised an exception at startup: see its traceback above'],
    ["ModuleNotFoundError: No module named 'mcp'", "Python module 'mcp' is not installed in the server's environment (pip install mcp, or use the right venv)"],
    ['npm warn exec The following package was not found and will be installed', 'npx is downloading the package first (cold cache): the first start is slow; install the package, or raise connectTimeoutMs'],
    ['Streamable HTTP error: Error POSTing to endpoint (HTTP 401): Unauthorized', 'the server refused the credentials: check the Authorization header in "headers" (and the ${VAR} it uses)'],
  ])('%s', (stderr, check) => {
    expect(inferChecks(stderr)).toContain(check);
  });

  it('finds nothing in ordinary logs', () => {
    expect(inferChecks('server started on stdio\nready')).toEqual([]);
  });
});

describe('retry delays (seed 002)', () => {
  it('are 0, base, then doubling', () => {
    const policy = { attempts: 4, baseDelayMs: 2000 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, policy))).toEqual([0, 2000, 4000, 8000]);
  });
});
