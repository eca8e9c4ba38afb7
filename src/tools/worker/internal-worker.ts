/** Worker thread entry for internal tools, the functions of a user's module (see serve-jobs.ts). */
import { loadInternalHandler, runInternalHandler } from '../internal-tool.js';
import { redirectOutputToStderr } from './redirect-output.js';
import { serveJobs } from './serve-jobs.js';

redirectOutputToStderr();

// checkOnly (toolrun validate): load the module and find the handler, without calling it.
serveJobs<'internal'>(async (job) => (job.checkOnly ? (await loadInternalHandler(job.module, job.handler), true) : runInternalHandler(job.module, job.handler, job.args)));
