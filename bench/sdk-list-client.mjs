// Baseline for `toolrun mcp doctor`: spawn server-everything over stdio, initialize, tools/list, close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio'], stderr: 'ignore' }));
await client.listTools();
await client.close();
