import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { AuthFlowError } from './auth-errors.js';
import { authWarning } from './auth-warnings.js';
import { AUTH_REQUEST_TIMEOUT_MS, authRequestTimeoutMs } from './auth-request-limits.js';
import { readWholeFile } from '../files/read-whole-file.js';
import { killServerNow, trackServer, untrackServer, type LiveServer } from '../process/process-group.js';
import { SERVER_MARKER_VARIABLE, startTicksOf } from '../process/process-tree.js';
import { currentEnv } from '../run-environment.js';
import { maskThenCut, rememberSecret } from '../secrets/mask-secrets.js';
import { quoteShellWord } from '../text/quote-shell-word.js';

/**
 * Where a credential comes from (SPEC §21): the config's value (usually "${VAR}"), a file (a
 * Kubernetes projected token, a key file), or a command whose stdout is the credential (a CI
 * provider's OIDC token request, `gcloud auth print-identity-token`). Exactly one is set.
 */
export interface CredentialSource {
  value?: string;
  file?: string;
  command?: string;
}

/** A token or a PEM key is a few kilobytes: more is not one. */
const MAX_CREDENTIAL_BYTES = 64 * 1024;
/** A command asks a metadata service or a CI runner for a token: 30 s is ample, and it never holds a command for longer. */
const COMMAND_TIMEOUT_MS = 30_000;

/**
 * The credential, trimmed and remembered for masking. `what` names the config field in each one-line
 * error ("oauth.assertionFile of 'ci'"); the credential itself is never quoted.
 */
export async function readCredential(source: CredentialSource, what: { field: string; server: string }): Promise<string> {
  const value = source.value ?? (source.file !== undefined ? readCredentialFile(source.file, what) : await runCredentialCommand(source.command!, what));
  const credential = value.trim();
  const name = `${what.field}${source.file !== undefined ? 'File' : source.command !== undefined ? 'Command' : ''} of '${what.server}'`;
  if (!credential) throw new AuthFlowError(`${name} is empty`, { fix: source.command !== undefined ? 'the command must print the credential on stdout' : 'check that it is set' });
  rememberSecret(credential);
  return credential;
}

function readCredentialFile(path: string, what: { field: string; server: string }): string {
  const name = `oauth.${what.field}File of '${what.server}' (${path})`;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AuthFlowError(`${name} cannot be read (${code === 'ENOENT' ? 'no such file' : code})`, { fix: "check the path (a relative one is from the config file's folder)" });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new AuthFlowError(`${name} is not a file`);
    // A private key others may read is a key others may have: OpenSSH refuses such a key file
    // ("Permissions 0644 for '…' are too open … This private key will be ignored": authfile.c,
    // sshkey_perm_ok, which tests st_mode & 077). toolrun warns and goes on (issue 48 item 8).
    if (what.field === 'privateKey' && process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      authWarning(`${name} can be read by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}), as ssh refuses for a key: chmod 600 ${quoteShellWord(path)}`);
    }
    const bytes = readWholeFile(fd, stat.size, MAX_CREDENTIAL_BYTES);
    if (!bytes) throw new AuthFlowError(`${name} holds more than ${MAX_CREDENTIAL_BYTES / 1024} KB: it is not a token or a key`);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs the command through the shell (it is the config's, as a stdio server's command is), in its
 * own process group: stdout is the credential, stderr is kept for the error. It is ended, its group
 * with it, at the time limit, when toolrun exits, and after it exits (nothing it started outlives it).
 */
function runCredentialCommand(command: string, what: { field: string; server: string }): Promise<string> {
  const name = `oauth.${what.field}Command of '${what.server}'`;
  const marker = randomBytes(8).toString('hex');
  // 30 s, or less when the command's --timeout lowered the OAuth requests' limit.
  const timeoutMs = authRequestTimeoutMs() < AUTH_REQUEST_TIMEOUT_MS ? authRequestTimeoutMs() : COMMAND_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...currentEnv(), [SERVER_MARKER_VARIABLE]: marker },
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let size = 0;
    let stderrTail = '';
    let stderrCut = false;
    let settled = false;
    const live: LiveServer = { pid: child.pid ?? 0, marker, startTicks: child.pid ? startTicksOf(child.pid) : undefined, shutdown: async () => killServerNow(live) };
    if (child.pid) trackServer(live);
    const end = () => {
      if (child.pid) {
        killServerNow(live);
        untrackServer(live);
      }
      child.stdout.destroy();
      child.stderr.destroy();
    };
    // Settled once: at the time limit or an overflow at once (a descendant holding the pipes must not hold toolrun), else at close.
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      end();
      reject(new AuthFlowError(`${name} ${why}`));
    };
    const timer = setTimeout(() => fail(`did not finish within ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CREDENTIAL_BYTES) fail(`printed more than ${MAX_CREDENTIAL_BYTES / 1024} KB: not a token`);
      else stdout.push(chunk);
    });
    // Only its last words are kept, for the error: a chatty helper does not grow toolrun's memory.
    child.stderr.on('data', (chunk: Buffer) => {
      const whole = stderrTail + chunk.toString('utf8');
      stderrCut ||= whole.length > STDERR_TAIL_CHARS;
      stderrTail = whole.slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (error) => fail(`could not start (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) {
        const lines = stderrTail.trim().split('\n');
        // The tail's first word was cut at its start: a secret there no longer looks like one
        // (a JWT without its "eyJ"), so it is left out, not masked (issue 48 item 8).
        const said = stderrCut && lines.length === 1 ? lines[0]!.replace(/^\S*\s*/, '… ') : lines.at(-1);
        return fail(`exited with ${code ?? signal}${said ? `: ${maskThenCut(said, 200)}` : ''}`);
      }
      settled = true;
      clearTimeout(timer);
      end();
      resolve(Buffer.concat(stdout).toString('utf8'));
    });
  });
}

const STDERR_TAIL_CHARS = 4096;
