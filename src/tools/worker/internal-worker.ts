/** Worker thread entry for internal tools, the functions of a user's module (see serve-jobs.ts). */
import { runInternalHandler } from '../internal-tool.js';
import { serveJobs } from './serve-jobs.js';

serveJobs<'internal'>((job) => runInternalHandler(job.module, job.handler, job.args));
