import { relative } from 'node:path';
import type { CliContext } from '../cli-support/cli-context.js';
import { ExitCode, UsageError } from '../errors.js';
import type { Terminal } from '../output/terminal.js';
import type { RecordedCall } from '../testing/tests-from-recording.js';

/**
 * `.save FILE`: the session's tool calls as a test file (SPEC §18), as `toolrun test --from` makes one
 * from a recording: each call a test, its answer the snapshot (in __snapshots__/ beside FILE).
 */
export async function saveShellCalls(cli: Pick<CliContext, 'cwd'>, terminal: Terminal, calls: RecordedCall[], words: string[]): Promise<number> {
  if (words.length !== 1) throw new UsageError('.save takes one FILE: the test file to write (for example .save smoke.toolrun.yaml)');
  if (calls.length === 0) throw new UsageError('no tool call to save yet: call a tool first, then .save FILE');
  const [{ suiteFromCalls }, { writeTestSuite }, { resolveOutputPath }] = await Promise.all([
    import('../testing/tests-from-recording.js'),
    import('../cli-support/write-test-suite.js'),
    import('../cli-support/output-file-path.js'),
  ]);
  const path = resolveOutputPath(cli.cwd, '.save', words[0]!);
  const suite = suiteFromCalls(calls, { made: `.save in toolrun shell (${new Date().toISOString()})` });
  const snapshots = await writeTestSuite(path, suite);
  const shown = (file: string) => relative(cli.cwd, file) || file;
  terminal.info(`✔ saved ${suite.tests} call${suite.tests === 1 ? '' : 's'} as tests in ${shown(path)} (snapshots: ${shown(snapshots)}); run: toolrun test ${shown(path)}`);
  return ExitCode.OK;
}
