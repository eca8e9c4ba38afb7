import { ExitCode, UsageError } from '../../errors.js';
import type { CliContext } from '../../cli-support/cli-context.js';

/** `--from REC -o FILE`: the test file and its snapshots, written whole or not at all. */
export async function generateFromRecording(cli: CliContext, options: { from?: string; output?: string; server?: string }): Promise<number> {
  if (options.output === undefined) throw new UsageError('--from needs -o FILE: the test file to write (for example -o smoke.toolrun.yaml)');
  const [{ readRecordingFile }, { testsFromRecording }, { writeTestSuite }, { resolveOutputPath, resolveWritablePath }, { relative }] = await Promise.all([
    import('../../cli-support/read-recording-file.js'),
    import('../../testing/tests-from-recording.js'),
    import('../../cli-support/write-test-suite.js'),
    import('../../cli-support/output-file-path.js'),
    import('node:path'),
  ]);
  const recording = resolveOutputPath(cli.cwd, '--from', options.from!);
  const output = resolveWritablePath(cli.cwd, '-o', options.output);
  const suite = await readRecordingFile(recording, (stream) => testsFromRecording(stream, { server: options.server, source: options.from! }));
  if (suite.tests === 0) throw new UsageError(`${options.from}: the recording has no answered tools/call, resources/read or prompts/get to make a test of`);
  const snapshotFile = await writeTestSuite(output, suite);
  const shown = (path: string) => relative(cli.cwd, path) || path;
  await cli.terminal.result(
    `✔ wrote ${suite.tests} test${suite.tests === 1 ? '' : 's'}${suite.server ? ` for server '${suite.server}'` : ''} to ${shown(output)}${suite.snapshots.size > 0 ? ` and their snapshots to ${shown(snapshotFile)}` : ''}; run: toolrun test ${shown(output)}`,
  );
  return ExitCode.OK;
}
