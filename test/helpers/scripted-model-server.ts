import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny OpenAI-compatible model for eval tests: POST /v1/chat/completions answers from a script, one
 * answer per request, in order (a tool call, or a text that ends the turn); every request body is
 * kept for the test to read (the tools as presented, the tool results fed back). Stands in until the
 * shared fixture (fixtures/servers/scripted-model-server.js) lands; the tests only use `start`.
 */
export type ScriptedAnswer =
  | { calls: Array<{ name: string; args: unknown }> }
  | { text: string }
  /** An HTTP error whose message quotes the request's Authorization header (as some proxies do). */
  | { failWithStatus: number };

export interface ScriptedModel {
  baseUrl: string;
  requests: Array<Record<string, unknown>>;
  /** Each request's headers, in the order of `requests`. */
  headers: Array<Record<string, unknown>>;
  /** Replaces the script (the answers still to give). */
  script(answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  let answers: ScriptedAnswer[] = [];
  const requests: Array<Record<string, unknown>> = [];
  const headers: Array<Record<string, unknown>> = [];
  let callNumber = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      requests.push(body);
      headers.push({ ...request.headers });
      const answer = answers.shift() ?? { text: 'the script has no more answers' };
      if ('failWithStatus' in answer) {
        response.writeHead(answer.failWithStatus, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `refused the key in: ${request.headers.authorization ?? 'no header'}`, type: 'invalid_request_error' } }));
        return;
      }
      const message =
        'text' in answer
          ? { role: 'assistant', content: answer.text }
          : {
              role: 'assistant',
              content: null,
              tool_calls: answer.calls.map((call) => ({ id: `call_${++callNumber}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } })),
            };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: String(body.model),
          choices: [{ index: 0, message, finish_reason: 'text' in answer ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
        }),
      );
    });
  });
  // Idle connections stay open, as in fixtures/servers/scripted-model-server.js: a pooled socket
  // closing as a request picks it up fails with UND_ERR_SOCKET under load.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    script: (next) => {
      answers = [...next];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
