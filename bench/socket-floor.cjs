// SPEC §22's floor for a warm exec: a bare Node client that sends one line over a Unix socket and
// prints the answer (the bench runs the echoing server; toolrun's warm exec talks to its session holder
// the same way, with an MCP server behind it). CommonJS, as toolrun's own entry is.
'use strict';
const { connect } = require('node:net');

const socket = connect(process.argv[2]);
let answer = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => {
  answer += chunk;
  const end = answer.indexOf('\n');
  if (end === -1) return;
  process.stdout.write(answer.slice(0, end + 1));
  socket.end();
});
socket.write(`${JSON.stringify({ call: 'everything:echo', args: { message: 'hi' } })}\n`);
