/** Worker thread entry for internal tools, the functions of a user's module (see serve-jobs.ts). */
import { loadInternalHandler, runInternalHandler } from '../internal-tool.js';
import { redirectOutputToStderr } from './redirect-output.js';
import { serveJobs } from './serve-jobs.js';

redirectOutputToStderr();

// checkOnly (toolrun validate): load the module and find the handler, without calling it.
serveJobs<'internal'>(async (job) => {
  if (!job.checkOnly) return runInternalHandler(job.module, job.handler, job.args);
  await loadInternalHandler(job.module, job.handler);
  return true;
});
