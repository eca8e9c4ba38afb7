import { appFinding, type AppRule } from '../app-rule.js';
import { htmlOf, readItem, SOURCES, uiUris } from '../apps-wire.js';
import { scanHtml } from '../html-loads.js';

/** The content is an HTML document (apps.mdx, "Content Requirements": "Content MUST be valid HTML5 document"), read statically. */
export const htmlDocument: AppRule = {
  id: 'apps/html-document',
  severity: 'error',
  summary: 'the UI resource is a well-formed HTML document',
  check(evidence) {
    return uiUris(evidence).flatMap((uri) => {
      const html = htmlOf(readItem(evidence, uri));
      if (html === undefined) return [];
      return scanHtml(html).problems.map((problem) =>
        appFinding(this, evidence, {
          severity: 'error',
          path: `resources/read ${uri} $.contents[0].text`,
          message: `${uri}: ${problem}`,
          fix: 'serve a complete HTML5 document (<!DOCTYPE html><html>…</html>), every tag, comment and script closed',
          source: SOURCES.uiResourceFormat,
        }),
      );
    });
  },
};
