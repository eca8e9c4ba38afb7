export interface ColorInputs {
  /** `--no-color` given. */
  noColorFlag: boolean;
  /** `--json` given: stdout must stay undecorated. */
  json: boolean;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * The one place that decides whether a stream gets ANSI color (SPEC §2): never with --no-color,
 * NO_COLOR or --json (on stdout); FORCE_COLOR forces it; otherwise only on a TTY and not in CI.
 */
export function shouldUseColor({ noColorFlag, json, isTTY, env }: ColorInputs): boolean {
  if (noColorFlag || json) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (isCi(env)) return false;
  return isTTY;
}

export function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/** Spinners and progress: a TTY, not CI, not --json, and not silenced. */
export function shouldAnimate({ json, isTTY, env, quiet }: { json: boolean; isTTY: boolean; env: NodeJS.ProcessEnv; quiet: boolean }): boolean {
  return isTTY && !json && !quiet && !isCi(env) && env.TERM !== 'dumb';
}
