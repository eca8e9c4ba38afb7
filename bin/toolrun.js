#!/usr/bin/env node
// A warm exec (a session holder keeps the server, SPEC §12) is answered before the CLI is loaded;
// anything else runs the CLI (src/fast-exec.ts says which forms).
import { tryFastExec } from '../dist/fast-exec.js';

if (!(await tryFastExec(process.argv, process.env))) await import('../dist/cli.js');
