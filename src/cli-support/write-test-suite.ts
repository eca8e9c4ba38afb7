import { SnapshotStore } from '../testing/snapshots.js';
import type { GeneratedSuite } from '../testing/tests-from-recording.js';
import { writeOutputFile } from './write-output-file.js';

/**
 * A generated test file (`toolrun test --from`, the shell's `.save`) and its snapshots, each written
 * whole or not at all and never through a link. Returns the snapshot file's path.
 */
export async function writeTestSuite(path: string, suite: GeneratedSuite): Promise<string> {
  const snapshots = new SnapshotStore(path, 'update');
  // Where the snapshots cannot go (a linked or another user's __snapshots__), not even the test file is written.
  snapshots.checkPlace();
  await writeOutputFile(path, Buffer.from(suite.text));
  for (const [name, value] of suite.snapshots) snapshots.set(name, value);
  snapshots.save();
  return snapshots.file;
}
