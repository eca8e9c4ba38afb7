import { escapeHtml } from './escape-html.js';

/** Markup that is already safe: built by `html` (or a chart helper), never a raw string from outside. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What may go into an `html` template: strings are escaped, numbers printed, lists joined, nothing-values dropped. */
export type HtmlValue = SafeHtml | string | number | undefined | null | false | readonly HtmlValue[];

/**
 * The one way the reports build markup: `html\`<td>${name}</td>\`` escapes every interpolated string
 * (escapeHtml), so forgetting to escape a server's string is not possible; only SafeHtml (the result of
 * another `html`) passes through as markup.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => (markup += render(value) + strings[index + 1]!));
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return escapeHtml(value);
  return '';
}
