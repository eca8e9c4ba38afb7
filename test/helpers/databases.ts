import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

// Real backends for the servers that need one (server-postgres, server-redis), started on 127.0.0.1
// on a free port for one test file. A machine without them gets `undefined` and a line on stderr
// saying what was skipped (.ci/run installs them from Debian's packages).

export const POSTGRES_USER = 'toolrun';
export const POSTGRES_PASSWORD = 'toolrun-test-pw';

export interface RunningBackend {
  port: number;
  /** A URL a server can connect with (postgres: with the test user's password). */
  url: string;
  stop: () => Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function postgresBin(name: string): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const path = join(root, version, 'bin', name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** Says on stderr which backend is missing, so a skipped test is never silent. */
export function reportSkip(what: string, why: string): void {
  process.stderr.write(`[skip] ${what}: ${why} (.ci/run installs it: apt-get install postgresql redis-server)\n`);
}

/**
 * Starts a throwaway PostgreSQL cluster (password auth, user `toolrun`) on 127.0.0.1.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startPostgres(): Promise<RunningBackend | undefined> {
  const initdb = postgresBin('initdb');
  const pgCtl = postgresBin('pg_ctl');
  if (!initdb || !pgCtl) {
    reportSkip('PostgreSQL', 'initdb/pg_ctl not found under /usr/lib/postgresql');
    return undefined;
  }
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (asRoot) {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      owner = { uid, gid };
    } catch {
      reportSkip('PostgreSQL', 'running as root and there is no postgres user to run it as');
      return undefined;
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolrun-pg-'));
  const data = join(dir, 'data');
  const passwordFile = join(dir, 'pw');
  writeFileSync(passwordFile, POSTGRES_PASSWORD);
  if (owner) {
    chmodSync(dir, 0o700);
    chownSync(dir, owner.uid, owner.gid);
    chownSync(passwordFile, owner.uid, owner.gid);
  }
  const run = (file: string, args: string[]) =>
    owner ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe', cwd: dir }) : execFileSync(file, args, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  try {
    run(initdb, ['-D', data, '-U', POSTGRES_USER, '--pwfile', passwordFile, '--auth', 'scram-sha-256', '--no-sync', '-E', 'UTF8']);
    run(pgCtl, ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  } catch (error) {
    reportSkip(
      'PostgreSQL',
      `could not start a cluster: ${
        String((error as { stderr?: Buffer }).stderr ?? error)
          .trim()
          .split('\n')[0]
      }`,
    );
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  let stopped = false;
  return {
    port,
    url: `postgresql://${POSTGRES_USER}:${POSTGRES_PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already down (a test stopped it to make the backend fail).
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a throwaway redis-server (no persistence) on 127.0.0.1; `stop` ends it. */
export async function startRedis(): Promise<RunningBackend | undefined> {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));
  if (!binary) {
    reportSkip('Redis', 'redis-server not found');
    return undefined;
  }
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    reportSkip('Redis', 'redis-server did not start');
    return undefined;
  }
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * PostgreSQL and Redis for the tests around the call (a file, or a describe block): started before
 * them, stopped after; a backend missing here stays undefined (its start already said why).
 */
export function useBackends(): { readonly postgres?: RunningBackend; readonly redis?: RunningBackend } {
  const backends: { postgres?: RunningBackend; redis?: RunningBackend } = {};
  beforeAll(async () => {
    [backends.postgres, backends.redis] = await Promise.all([startPostgres(), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([backends.postgres?.stop(), backends.redis?.stop()]);
  });
  return backends;
}
