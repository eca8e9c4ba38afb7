// SPEC §22's floor for `toolrun exec get_current_datetime`: the least a commander CLI does for the same
// job — parse `[--config FILE] exec TOOL`, read the config where toolrun looks for it ($TOOLRUN_CONFIG,
// else ./toolrun.config.json), print the time as JSON on stdout and a status line on stderr. CommonJS,
// as toolrun's own entry is, so the ratio measures toolrun's work and not the module loader's.
'use strict';
const { readFileSync } = require('node:fs');
const { Command } = require('commander');

const program = new Command('floor').option('--config <file>');
program.command('exec <tool>').action((tool) => {
  const path = program.opts().config || process.env.TOOLRUN_CONFIG || 'toolrun.config.json';
  try {
    JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  if (tool !== 'get_current_datetime') throw new Error(`unknown tool ${tool}`);
  const startedAt = performance.now();
  const now = new Date();
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  process.stdout.write(`${JSON.stringify({ datetime: now.toISOString(), timezone, unix_ms: now.getTime(), formatted: now.toString() }, null, 2)}\n`);
  process.stderr.write(`✔ ${tool} · builtin · ${(performance.now() - startedAt).toFixed(2)} ms\n`);
});
program.parse();
