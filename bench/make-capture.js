// Writes a realistic MCP stdout capture of about `megabytes` MB: responses to tools/call with text
// and structured content, progress and log notifications, and a polluting console.log line now and
// then. Used by the scanner benchmark.
import { createWriteStream } from 'node:fs';

export async function makeCapture(path, megabytes) {
  const target = megabytes * 1024 * 1024;
  const out = createWriteStream(path);
  let written = 0;
  let id = 0;
  const words = 'the quick brown fox jumps over the lazy dog while the server answers tool calls with text'.split(' ');
  const text = (n) => Array.from({ length: n }, (_, i) => words[(i * 7 + id) % words.length]).join(' ');
  while (written < target) {
    id++;
    let line;
    switch (id % 5) {
      case 0:
        line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: id % 100, total: 100 } });
        break;
      case 1:
        line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'server', data: text(20) } });
        break;
      case 2:
        line = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: text(120) }], structuredContent: { count: id, items: [id, id + 1, id + 2], label: text(5) } } });
        break;
      default:
        line = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: text(40) }] } });
    }
    if (id % 10_000 === 0) line = `Processed ${id} requests`; // a console.log left in the server
    const data = `${line}\n`;
    written += Buffer.byteLength(data);
    if (!out.write(data)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  return written;
}
