import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from './temp-config.js';

export type InteractiveShell = 'bash' | 'zsh' | 'fish';

/**
 * Types `line`, a Tab, then Enter, in a real interactive shell (bash, zsh or fish, in a tmux of its
 * own: readline or zle does the completing, as for a person) that has loaded the completion script
 * `script`. `env.PATH` must lead to a `toolrun` that logs each run to $TOOLRUN_ARGV_LOG, and appends a
 * line to $TOOLRUN_COMPLETE_LOG each time a `__complete` run ends. Returns the screen after Enter and
 * the runs logged (each its argv). The tmux server is ended before this returns.
 */
export async function tabThenEnter(
  shell: InteractiveShell,
  shellPath: string,
  script: string,
  line: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ runs: string[][]; screen: string }> {
  const home = tempDir();
  const log = join(home, 'argv.log');
  const completions = join(home, 'complete.log');
  const socket = `toolrun-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const env = { ...options.env, HOME: home, TOOLRUN_ARGV_LOG: log, TOOLRUN_COMPLETE_LOG: completions, TERM: 'xterm-256color', ZDOTDIR: home };
  // Each shell's own start file: the completion script loaded, and a prompt to wait for.
  writeFileSync(join(home, '.zshrc'), `autoload -U compinit && compinit -u -D\nsource '${script}'\nPS1='READY> '\n`);
  writeFileSync(join(home, 'bashrc'), `source '${script}'\nPS1='READY> '\n`);
  const command = {
    bash: `${shellPath} --noprofile --rcfile '${join(home, 'bashrc')}' -i`,
    zsh: `${shellPath} -i`,
    fish: `${shellPath} --no-config -i -C "source '${script}'; function fish_prompt; echo 'READY> '; end"`,
  }[shell];
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { cwd: options.cwd, env, encoding: 'utf8', timeout: 10_000 });
  tmux('new-session', '-d', '-s', 'typing', '-x', '200', '-y', '50', '-c', options.cwd, command);
  try {
    const screen = () => tmux('capture-pane', '-p', '-t', 'typing');
    await until(() => screen().includes('READY>'), `${shell} prompt`);
    tmux('send-keys', '-t', 'typing', '-l', line);
    tmux('send-keys', '-t', 'typing', 'Tab');
    // The completion asks toolrun (a node process): Enter only once its answer is in, as a person
    // would wait for it. A shell may ask more than once for one Tab: until no run has ended for 250 ms.
    const ended = () => (existsSync(completions) ? readFileSync(completions, 'utf8').split('\n').length - 1 : 0);
    await until(() => ended() > 0, 'the completion to answer', 5000);
    for (let seen = -1; seen !== ended();) {
      seen = ended();
      await sleep(250);
    }
    tmux('send-keys', '-t', 'typing', 'Enter');
    await until(() => existsSync(log), 'the run after Enter', 5000).catch(() => {});
    await sleep(200);
    const runs = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text) as string[])
      : [];
    return { runs, screen: screen() };
  } finally {
    tmux('kill-server');
  }
}

async function until(ready: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!ready()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
