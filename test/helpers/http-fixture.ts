import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { FIXTURES } from './run-toolrun.js';

export interface HttpFixture {
  url: string;
  stop(): Promise<void>;
}

/** Starts fixtures/servers/v2-server.js over Streamable HTTP on a free port; resolves with its URL. */
export async function startV2HttpServer(env: Record<string, string> = {}): Promise<HttpFixture> {
  const child: ResultPromise = execa(process.execPath, [join(FIXTURES, 'servers', 'v2-server.js')], { env: { TRANSPORT: 'http', PORT: '0', ...env }, reject: false, buffer: false, stdin: 'ignore' });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('v2-server over HTTP did not start')), 15_000);
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
