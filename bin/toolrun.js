#!/usr/bin/env node
// A warm exec (a session holder keeps the server, SPEC §12) is answered before the CLI is loaded;
// anything else runs the CLI (src/fast-exec.ts says which forms), its chunks loaded with V8's code
// cache (src/load-chunk.ts).
import { createRequire } from 'node:module';
import { tryFastExec } from '../dist/fast-exec.js';

if (!(await tryFastExec(process.argv, process.env))) createRequire(import.meta.url)('../dist/load-chunk.cjs').loadChunk('./cli.js');
