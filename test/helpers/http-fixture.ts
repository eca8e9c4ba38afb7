import { execa, type ResultPromise } from 'execa';
import { fixtureServerScript } from './bundled-servers.js';

export interface HttpFixture {
  url: string;
  stop(): Promise<void>;
}

/** Starts fixtures/servers/v2-server.js over Streamable HTTP on a free port; resolves with its URL. */
export function startV2HttpServer(env: Record<string, string> = {}): Promise<HttpFixture> {
  return startHttpFixture('v2-server.js', { TRANSPORT: 'http', ...env });
}

/** Starts fixtures/servers/session-http-server.js (2025-era sessions; its env options are in the file). */
export function startSessionHttpServer(env: Record<string, string> = {}): Promise<HttpFixture> {
  return startHttpFixture('session-http-server.js', env);
}

/** Starts fixtures/servers/broken-auth-server.js: its URL is the origin, each variant under `/VARIANT/mcp`. */
export function startBrokenAuthServer(env: Record<string, string> = {}): Promise<HttpFixture> {
  return startHttpFixture('broken-auth-server.js', env);
}

/** Starts an HTTP fixture server on a free port; resolves with the URL it prints ("listening on URL"). */
export async function startHttpFixture(file: string, env: Record<string, string>): Promise<HttpFixture> {
  const child: ResultPromise = execa(process.execPath, [fixtureServerScript(file)], { env: { PORT: '0', ...env }, reject: false, buffer: false, stdin: 'ignore' });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} over HTTP did not start`)), 15_000);
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGKILL');
      await child;
    },
  };
}
