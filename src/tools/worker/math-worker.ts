/** Worker thread entry for math_eval (see serve-jobs.ts). */
import { fileURLToPath } from 'node:url';
import type * as MathEvaluate from '../math-evaluate.js';
import { loadCachedScript } from './load-cached-script.js';
import { serveJobs } from './serve-jobs.js';

const { loadSafeMath, mathEval } = loadCachedScript<typeof MathEvaluate>(fileURLToPath(new URL('./math-evaluate.cjs', import.meta.url)));
serveJobs<'math'>((job) => mathEval(job.args));
// Build mathjs' parser now (~60 ms), while the main thread is still validating the call.
loadSafeMath();
