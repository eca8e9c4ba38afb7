/**
 * Opens `url` in a browser, never through a shell (the URL is one argument, whatever it holds):
 * `$BROWSER URL` when BROWSER is set, as git, gh and Python's webbrowser do (CI and test harnesses
 * consent that way), else the platform's opener. Resolves once the opener started; a browser that
 * is never answered is the login's timeout to report, unless `onBrowserFailed` hears $BROWSER fail.
 */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv, onBrowserFailed?: (why: string) => void): Promise<void> {
  const [command, args] = openerCommand(url, env);
  // Loaded here: every command's startup imports this file (inline logins), and node:child_process costs ~2 ms to load.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: process.platform !== 'win32', env });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? `no browser opener '${command}' found: use --no-browser, or set BROWSER` : `could not start '${command}': ${error.message}`)),
    );
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

function openerCommand(url: string, env: NodeJS.ProcessEnv): [string, string[]] {
  // BROWSER may hold several candidates separated by ':' (the convention): the first is used.
  const browser = env.BROWSER?.split(':')[0]?.trim();
  if (browser) return [browser, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  // `start` is cmd's builtin; the empty "" is its window title, so the URL is never taken for one.
  if (process.platform === 'win32') return ['cmd', ['/d', '/s', '/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}
