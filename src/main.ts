/** The toolrun executable: runs the CLI, then exits with its code once output is flushed. */
import { tryFastExec } from './fast-exec.js';

// A warm exec (a session holder keeps the server) is answered before the CLI is even loaded.
const code = (await tryFastExec(process.argv, process.env)) ?? (await (await import('./cli.js')).runCli(process.argv));
// Exit explicitly: a tool's leftover timer or socket must not keep the process alive,
// and every child process was already ended by runCli's cleanup.
process.exitCode = code;
if (process.stdout.writableLength === 0) process.exit(code);
else {
  const exit = () => process.exit(code);
  process.stdout.once('drain', exit).once('close', exit).once('error', exit);
}
