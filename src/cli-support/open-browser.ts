import { ToolrunError, UsageError } from '../errors.js';
import { splitCommandWords } from '../input/split-words.js';

/**
 * Opens `url` in a browser, never through a shell (the URL is one argument, whatever it holds):
 * `$BROWSER URL` when BROWSER is set, as git, gh and Python's webbrowser do (CI and test harnesses
 * consent that way), else the platform's opener. Resolves once the opener started; a browser that
 * is never answered is the login's timeout to report, unless `onBrowserFailed` hears $BROWSER fail.
 */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv, onBrowserFailed?: (why: string) => void): Promise<void> {
  // The callers check their URLs (auth: https or loopback http; elicitation: http(s)); a web page is
  // all an opener is ever given here: a `file:` path or a custom scheme would start another program.
  if (!/^https?:\/\//i.test(url)) throw new Error(`toolrun opens only http(s) URLs in a browser, not ${JSON.stringify(url.slice(0, 100))}`);
  const [command, args] = openerCommand(url, env);
  // Loaded here: every command's startup imports this file (inline logins), and node:child_process costs ~2 ms to load.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: process.platform !== 'win32', env, shell: false, windowsHide: true });
    child.once('error', (error: NodeJS.ErrnoException) => reject(startFailure(command, error, env.BROWSER?.trim())));
    // A $BROWSER program that fails (a CI script that cannot reach the page) will never answer: the
    // login need not wait out its timeout. A platform opener's status says nothing of the sort.
    if (onBrowserFailed && env.BROWSER?.trim())
      child.once('exit', (code, signal) => {
        if (code !== 0) onBrowserFailed(code === null ? `was ended by ${signal}` : `exited with status ${code}`);
      });
    child.once('spawn', () => {
      // A browser outlives the login when it was not running before: toolrun does not wait for it.
      child.unref();
      resolve();
    });
  });
}

/** The program that opens `url`, and its arguments (exported for the test of the Windows launcher). */
export function openerCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): [string, string[]] {
  const browser = browserWords(env.BROWSER);
  if (browser) return [browser[0]!, [...browser.slice(1), url]];
  if (platform === 'darwin') return ['open', [url]];
  // Not `cmd /c start URL`: cmd parses the line, and a URL's `|`, `^`, `%VAR%` or `&` (escaping one of
  // them is not enough) would run or change commands. rundll32 hands the URL to the shell's protocol
  // handler with no command-line parsing in between: gh opens URLs through ShellExecute
  // (github.com/cli/browser, browser_windows.go), the same handler, and Go's github.com/pkg/browser long
  // ran `rundll32 url.dll,FileProtocolHandler URL`. By its full path, so a rundll32.exe on PATH is not the one run.
  if (platform === 'win32') return [`${env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows'}\\System32\\rundll32.exe`, ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/**
 * `$BROWSER` as a program and its arguments: shell words, as gh splits it (`BROWSER="firefox
 * --new-window"`, a quoted path with blanks). One word may still hold the old ':'-separated list of
 * candidates: the first is used. An unclosed quote is the user's to fix (exit 2).
 */
function browserWords(value: string | undefined): string[] | undefined {
  if (!value?.trim()) return undefined;
  const words = splitCommandWords(value.trim());
  if (typeof words === 'string') throw new UsageError(`$BROWSER (${value.trim()}) is not a command line: ${words}; fix it, or use --no-browser`);
  return words.length === 1 ? [words[0]!.split(':')[0]!] : words;
}

/** Why the opener did not start, in one line with the fix (exit 4: the login cannot go on this way). */
function startFailure(command: string, error: NodeJS.ErrnoException, browser: string | undefined): ToolrunError {
  const what = error.code === 'ENOENT' ? `'${command}' was not found` : `'${command}' could not be started (${error.code ?? error.message})`;
  if (browser) return new ToolrunError('unreachable', `$BROWSER (${browser}) names no program toolrun can run: ${what}; fix $BROWSER, or use --no-browser`);
  return new ToolrunError('unreachable', `no browser opener: ${what}; use --no-browser, or set BROWSER`);
}
