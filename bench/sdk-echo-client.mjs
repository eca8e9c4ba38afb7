// Baseline for `toolrun exec echo`: the least an SDK client can do — spawn server-everything over
// stdio, initialize, call echo once, close. Unbundled, as a user's script would be.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio'], stderr: 'ignore' }));
const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
if (result.isError) process.exit(1);
await client.close();
