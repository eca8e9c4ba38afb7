import { execa } from 'execa';
import { join } from 'node:path';
import { ROOT } from './run-toolrun.js';

export interface ScriptedModel {
  /** The server's origin; a provider's base URL is `${url}/v1`. */
  url: string;
  /** Chat completions the server has answered so far (GET /requests). */
  requestCount(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts fixtures/servers/scripted-model-server.js (a script of fixtures/eval/, the default one when none is given). */
export async function startScriptedModel(script?: string): Promise<ScriptedModel> {
  const child = execa(process.execPath, [join(ROOT, 'fixtures/servers/scripted-model-server.js'), ...(script ? [script] : [])], { reject: false, buffer: false, stdin: 'ignore' });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline !== -1) resolve(text.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`scripted-model-server.js exited (${code}) before printing its URL`)));
  });
  return {
    url,
    requestCount: async () => ((await (await fetch(`${url}/requests`)).json()) as { count: number }).count,
    stop: async () => {
      child.kill('SIGKILL');
      await child;
    },
  };
}
