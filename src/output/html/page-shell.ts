import { readVersion } from '../../version.js';
import { html, SafeHtml } from './html-template.js';
import { PAGE_STYLE } from './page-style.js';

/**
 * The policy that makes the file self-contained by construction: nothing may load (no script, no
 * stylesheet, font, frame or image from anywhere), only the inline style and data: images. A report
 * opened from a CI artifact cannot phone home, and markup a server smuggled in could not run.
 */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** A whole HTML report (SPEC §17): one file, inline CSS and SVG, no script, no network. */
export function renderPage(page: { title: string; body: SafeHtml }): string {
  const version = readVersion();
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="generator" content="${`toolrun ${version}`}" />
        <title>${page.title}</title>
        <style>
          ${new SafeHtml(PAGE_STYLE)}
        </style>
      </head>
      <body>
        ${page.body}
        <footer>${`made by toolrun ${version}`} · a self-contained file: it loads nothing</footer>
      </body>
    </html> `.markup;
}
