/**
 * Styling for one stream. Built from an explicit decision (color.ts) rather than chalk's own
 * detection, so --json, --no-color, NO_COLOR and CI are honored in exactly one place.
 */
export interface Style {
  readonly enabled: boolean;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain = (text: string) => text;
const PLAIN_STYLE: Style = { enabled: false, red: plain, green: plain, yellow: plain, cyan: plain, dim: plain, bold: plain };

/**
 * chalk is loaded only when color is on: its terminal detection costs ~10 ms at import, and the
 * uncolored case (pipes, CI, --json) is the one scripts and benchmarks run.
 */
export async function createStyle(enabled: boolean): Promise<Style> {
  if (!enabled) return PLAIN_STYLE;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return {
    enabled,
    red: (text) => chalk.red(text),
    green: (text) => chalk.green(text),
    yellow: (text) => chalk.yellow(text),
    cyan: (text) => chalk.cyan(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
  };
}
