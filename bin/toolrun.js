#!/usr/bin/env node
// CommonJS (bin/package.json), as is dist/fast-exec.cjs: an ES module entry starts Node's ES module
// loader, ~6 ms of a 50 ms run on a fast machine, before any of toolrun runs.
// A warm exec (a session holder keeps the server, SPEC §12) is answered before the CLI is loaded;
// anything else runs the CLI (src/fast-exec.ts says which forms), its chunks loaded with V8's code
// cache (src/load-chunk.ts).
'use strict';
require('../dist/fast-exec.cjs')
  .tryFastExec(process.argv, process.env)
  .then((answered) => {
    if (!answered) require('../dist/load-chunk.cjs').loadChunk('./cli.js');
  });
