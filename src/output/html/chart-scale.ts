import { maskThenCut } from '../../secrets/mask-secrets.js';

/** Shared arithmetic of the SVG charts: axis ticks at round numbers, and text cut to fit a drawing. */

/** Up to about `count` round tick values (1, 2 or 5 × 10^k apart) from 0 to at least `max`. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough)!;
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

/**
 * A label of at most `width` characters; the whole text stays in the element's <title>. Masked
 * before it is cut (maskThenCut: never half a surrogate pair, never the start of a secret).
 */
export function cutLabel(text: string, width: number): string {
  return maskThenCut(text, width, '…');
}

/** A coordinate with at most one decimal: the file stays small, the drawing exact enough. */
export function px(value: number): number {
  return Math.round(value * 10) / 10;
}
