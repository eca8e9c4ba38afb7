import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { compareMessages, ISO_TIME, type Difference } from '../record/compare-messages.js';
import { refuseForeignPlace } from '../files/foreign-folder.js';
import { replaceFileAtomically, UnsafePathError } from '../files/write-file-safely.js';
import { isSecretName, maskKnownSecrets, MASK } from '../secrets/mask-secrets.js';
import { selectNodes } from './json-path.js';

/** `suite.toolrun.yaml` → `__snapshots__/suite.snap.json` beside it. */
export function snapshotFileFor(testFile: string): string {
  const name = basename(testFile)
    .replace(/\.toolrun\.(ya?ml|json)$/, '')
    .replace(/\.(ya?ml|json)$/, '');
  return join(dirname(testFile), '__snapshots__', `${name}.snap.json`);
}

/**
 * What a snapshot keeps of a result, as `mcp replay` compares: no `_meta` anywhere, ISO timestamps
 * as "<time>", and the `ignore:` JSONPaths left out, so a re-run of an unchanged server matches.
 */
export function normalizeForSnapshot(result: unknown, ignore: readonly string[]): unknown {
  let value = strip(structuredClone(result ?? null));
  for (const path of ignore) {
    // Deepest first, so removing an array item does not shift the ones still to remove.
    const nodes = selectNodes(path, value).sort((a, b) => b.location.length - a.location.length || compareIndexes(b.location, a.location));
    for (const node of nodes) {
      if (node.location.length === 0) value = '<ignored>';
      else removeAt(value, node.location);
    }
  }
  return value;
}

function strip(value: unknown): unknown {
  if (typeof value === 'string') return ISO_TIME.test(value) ? '<time>' : value;
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== '_meta')
        .map(([key, item]) => [key, strip(item)]),
    );
  return value;
}

function compareIndexes(a: Array<string | number>, b: Array<string | number>): number {
  const last = (location: Array<string | number>) => location[location.length - 1];
  return typeof last(a) === 'number' && typeof last(b) === 'number' ? (last(a) as number) - (last(b) as number) : 0;
}

function removeAt(root: unknown, location: Array<string | number>): void {
  let parent = root as Record<string | number, unknown> | unknown[];
  for (const key of location.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key] as Record<string | number, unknown>;
  const key = location[location.length - 1]!;
  if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else delete (parent as Record<string | number, unknown>)[key];
}

/**
 * The values of the environment's secret-named variables (GITHUB_TOKEN, DB_PASSWORD), for a
 * snapshot to mask even when no config or `${NAME}` brought them (a server printing its environment).
 * Short values are left: "user" or "tty" masked in every answer would hide more than it protects.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= 8 && isSecretName(name))
    .map(([, value]) => value!)
    .sort((a, b) => b.length - a.length);
}

/** `value` with every known secret (masking's, and `extra`) in its strings and keys replaced by `***`. */
function maskSecretsIn(value: unknown, extra: readonly string[]): unknown {
  const mask = (text: string) => {
    let masked = maskKnownSecrets(text);
    for (const secret of extra) if (masked.includes(secret)) masked = masked.split(secret).join(MASK);
    return masked;
  };
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return mask(item);
    if (Array.isArray(item)) return item.map(visit);
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [mask(key), visit(inner)]));
    return item;
  };
  return visit(value);
}

/**
 * One test file's snapshots: read once, compared per test, written once at the end when a test
 * wrote or updated one. `mode`: `update` rewrites what differs; `ci` fails a missing snapshot (a CI
 * run never writes one: it would pass by definition); `write` writes a missing one and passes.
 */
export class SnapshotStore {
  readonly file: string;
  readonly #mode: 'update' | 'ci' | 'write';
  #stored: Record<string, unknown> | undefined;
  #changed = false;
  readonly written: string[] = [];

  readonly #secrets: readonly string[];

  /** `secrets`: values masked besides the ones masking knows (environmentSecrets of the run's environment). */
  constructor(testFile: string, mode: 'update' | 'ci' | 'write', secrets: readonly string[] = []) {
    this.file = snapshotFileFor(testFile);
    this.#mode = mode;
    this.#secrets = secrets;
  }

  #load(): Record<string, unknown> {
    if (this.#stored) return this.#stored;
    const text = this.#read();
    if (text === undefined) return (this.#stored = {});
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object of test names');
      return (this.#stored = parsed as Record<string, unknown>);
    } catch (error) {
      throw new ConfigError(`${this.file}: not a snapshot file (${(error as Error).message}); delete it and run toolrun test --update`, { file: this.file });
    }
  }

  /**
   * The snapshot file's text, or undefined when there is none. A snapshot is compared and its
   * differences printed, so one that is a symbolic link, or sits in a __snapshots__ that is one, would
   * print the file it points to (a cloned repository's link to ~/.ssh/id_rsa): refused, never opened
   * (issue #48 item 1). O_NOFOLLOW refuses a link at the name in open() itself; O_NONBLOCK, a FIFO.
   */
  #read(): string | undefined {
    const folder = dirname(this.file);
    if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) throw this.#linkError(folder);
    let fd: number;
    try {
      fd = openSync(this.file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw this.#linkError(this.file);
      throw new ConfigError(`${this.file}: cannot read the snapshots (${code ?? (error as Error).message})`, { file: this.file });
    }
    try {
      if (!fstatSync(fd).isFile()) throw new ConfigError(`${this.file} is not a regular file; delete it and run toolrun test --update`, { file: this.file });
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  }

  #linkError(path: string): ConfigError {
    const what = path === this.file ? 'snapshots are read and written only as a regular file' : 'snapshots are read and written only in a real folder beside the test file';
    return new ConfigError(`${path} is a symbolic link; ${what} (remove the link)`, { file: this.file });
  }

  /** Compares (or records) a test's normalised result; returns the differences, or a missing-snapshot problem. */
  check(testName: string, result: unknown): { differences: Difference[]; missing?: string; wrote?: boolean } {
    const stored = this.#load();
    // Masked before it is compared or written: a snapshot is committed, and a pull request's test file
    // may echo a token (\${GITHUB_TOKEN}) or call a tool that prints the environment.
    const normalized = maskSecretsIn(result, this.#secrets);
    if (!Object.hasOwn(stored, testName)) {
      if (this.#mode === 'ci')
        return { differences: [], missing: `no snapshot for this test in ${this.file}, and CI is set: run toolrun test --update where the server is right, and commit the file` };
      this.#record(testName, normalized);
      return { differences: [], wrote: true };
    }
    const differences = compareMessages(stored[testName], normalized);
    if (differences.length > 0 && this.#mode === 'update') {
      this.#record(testName, normalized);
      return { differences: [], wrote: true };
    }
    return { differences };
  }

  /** Records a snapshot directly (a suite generated from a recording starts with the recorded answers). */
  set(testName: string, normalized: unknown): void {
    this.#load();
    this.#record(testName, maskSecretsIn(normalized, this.#secrets));
  }

  #record(testName: string, normalized: unknown): void {
    this.#stored![testName] = normalized;
    this.#changed = true;
    this.written.push(testName);
  }

  /** Writes the file when a snapshot was added or updated: whole or not at all, never through a link. */
  save(): void {
    if (!this.#changed) return;
    this.#guard(() => {
      this.checkPlace();
      mkdirSync(dirname(this.file), { recursive: true });
      refuseForeignPlace(this.file);
      replaceFileAtomically(this.file, Buffer.from(`${JSON.stringify(this.#stored, null, 2)}\n`), { durable: true });
    });
    this.#changed = false;
  }

  /**
   * Throws (ConfigError) when the snapshots could not be written where they go: a __snapshots__ that is
   * a link (a cloned repository's would have toolrun write where it points), or a test file's folder,
   * __snapshots__ or snapshot file of another user (as exec -o DIR refuses). `--from` asks before it
   * writes anything.
   */
  checkPlace(): void {
    const folder = dirname(this.file);
    if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) throw this.#linkError(folder);
    this.#guard(() => {
      refuseForeignPlace(folder);
      if (lstatSync(folder, { throwIfNoEntry: false })) refuseForeignPlace(this.file);
    });
  }

  #guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error;
      const fix = error.code === 'symlink' ? 'remove the link' : error.code === 'foreign' || error.code === 'foreign-folder' ? 'keep the test file in a folder of your own' : 'delete it';
      throw new ConfigError(`cannot write the snapshots: ${error.path}: ${error.message}; ${fix}`, { file: this.file });
    }
  }
}
