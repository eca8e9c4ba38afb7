/** The toolrun executable: runs the CLI, then exits with its code once output is flushed. */
import { runCli } from './cli.js';

// Not a top-level await: the CLI's lazily loaded chunks import this module's bundle (scripts/build.js
// merges the start path into it), and a module still evaluating cannot be imported from.
void runCli(process.argv, { ownsProcess: true }).then((code) => {
  // Exit explicitly: a tool's leftover timer or socket must not keep the process alive,
  // and every child process was already ended by runCli's cleanup.
  process.exitCode = code;
  if (process.stdout.writableLength === 0) process.exit(code);
  else {
    const exit = () => process.exit(code);
    process.stdout.once('drain', exit).once('close', exit).once('error', exit);
  }
});
