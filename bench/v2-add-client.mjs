// Baseline for `toolrun exec` on a 2026-07-28 server: the least the v2 SDK's own client does —
// spawn the v2 fixture (2026-07-28 only) over stdio, negotiate (server/discover), call add once, close.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../fixtures/servers/v2-server.js', import.meta.url));
// A subclass probes in place (the base class would spawn a second, probe-only process).
class Transport extends StdioClientTransport {}
const client = new Client({ name: 'bench-baseline', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new Transport({ command: process.execPath, args: [server], env: { ...process.env, LEGACY: 'reject' }, stderr: 'ignore' }));
const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
if (result.isError || client.getProtocolEra() !== 'modern') process.exit(1);
await client.close();
