// Baseline for `toolrun mcp doctor` and `toolrun list`: spawn a server over stdio (server-everything,
// or the script given as the first argument), initialize, tools/list, close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
const args = process.argv[2] ? [process.argv[2]] : [server, 'stdio'];
await client.connect(new StdioClientTransport({ command: process.execPath, args, env: process.env, stderr: 'ignore' }));
await client.listTools();
await client.close();
