import type { CliContext } from './cli-context.js';
import { UsageError } from '../errors.js';

/** `8931`, `127.0.0.1:8931`, `[::1]:8931`, `0.0.0.0:8931`: the host defaults to loopback. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new UsageError(`--http ${value}: give a port, or HOST:PORT (e.g. 8931 or 127.0.0.1:8931)`);
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

/**
 * The bearer token `--token-env VAR` names, for the HTTP endpoints toolrun opens (`serve --http`,
 * `mcp mock --http`), with their one rule: an endpoint that listens beyond this machine needs one,
 * since anyone who can reach the port could otherwise call through it.
 */
export async function httpBearerToken(cli: CliContext, options: { http?: string; tokenEnv?: string }, listen: { host: string } | undefined): Promise<string | undefined> {
  if (options.tokenEnv !== undefined && !listen) throw new UsageError('a bearer token guards the HTTP endpoint only: add --http PORT, or drop --token-env');
  const token = options.tokenEnv === undefined ? undefined : cli.env[options.tokenEnv];
  if (options.tokenEnv !== undefined && !token) throw new UsageError(`${options.tokenEnv} is not set (or empty): set it to the bearer token clients must send, then start again`);
  if (!listen || token !== undefined) return token;
  const { isLoopbackHost } = await import('../http/incoming-request.js');
  if (!isLoopbackHost(listen.host)) throw new UsageError(`--http ${options.http} listens beyond this machine: guard it with a bearer token (--token-env)`);
  return undefined;
}
