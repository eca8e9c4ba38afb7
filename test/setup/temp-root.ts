// vitest's globalSetup: every temporary file of the run goes into one folder, removed at the end. The
// workers, and everything they start, inherit TMPDIR (os.tmpdir() and mkdtemp read it), so a run leaves
// nothing in /tmp: it used to leave ~1,800 folders there per run.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function useTempRoot(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'toolrun-suite-'));
  // As /tmp itself: open to every user, sticky. PostgreSQL runs as its own user in a folder of its own here.
  chmodSync(root, 0o1777);
  process.env.TMPDIR = root;
  return () => {
    try {
      rmSync(root, { recursive: true, force: true });
    } catch (error) {
      process.stderr.write(`note: could not remove the suite's temporary folder ${root}: ${(error as Error).message}\n`);
    }
  };
}
