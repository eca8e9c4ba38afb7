import { appFinding, type AppRule } from '../app-rule.js';
import { APP_MIME_TYPE, listedEntry, readItem, SOURCES, uiUris } from '../apps-wire.js';
import type { Finding } from '../app-rule.js';

/** `text/html; profile=mcp-app` and `TEXT/HTML;profile=mcp-app` are the same type (RFC 2045 §5.1: case-insensitive type, whitespace around parameters). */
function sameMimeType(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const [type, ...parameters] = value.split(';').map((part) => part.trim());
  return (
    type!.toLowerCase() === 'text/html' &&
    parameters.some(
      (parameter) =>
        parameter
          .replace(/\s*=\s*/, '=')
          .replace(/"/g, '')
          .toLowerCase() === 'profile=mcp-app',
    )
  );
}

/**
 * The UI resource's content is HTML of MIME type `text/html;profile=mcp-app` (apps.mdx, "Content
 * Requirements": the read content's mimeType MUST be it, and content MUST come as `text` or
 * `blob`); the listed entry SHOULD carry it too ("UI Resource Format": mimeType SHOULD be it).
 */
export const mimeType: AppRule = {
  id: 'apps/mime-type',
  severity: 'error',
  summary: 'the UI resource is text/html;profile=mcp-app, in resources/read (MUST) and resources/list (SHOULD), with text or blob',
  check(evidence) {
    return uiUris(evidence).flatMap((uri) => {
      const findings: Finding[] = [];
      const item = readItem(evidence, uri);
      if (item && !sameMimeType(item.mimeType)) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'error',
            path: `resources/read ${uri} $.contents[0].mimeType`,
            message: `${uri} is read as ${item.mimeType === undefined ? 'no MIME type' : JSON.stringify(item.mimeType)}, not ${APP_MIME_TYPE}: hosts do not render it as an App`,
            fix: `answer resources/read with mimeType: "${APP_MIME_TYPE}"`,
            source: SOURCES.uiResourceFormat,
          }),
        );
      }
      if (item && typeof item.text !== 'string' && typeof item.blob !== 'string') {
        findings.push(
          appFinding(this, evidence, {
            severity: 'error',
            path: `resources/read ${uri} $.contents[0]`,
            message: `${uri} is read with neither text nor blob: there is no HTML to render`,
            fix: "put the HTML document in the content item's text (or base64 in blob)",
            source: SOURCES.uiResourceFormat,
          }),
        );
      }
      const listed = listedEntry(evidence, uri);
      if (listed && !sameMimeType(listed.mimeType)) {
        findings.push(
          appFinding(this, evidence, {
            severity: 'warning',
            path: `resources/list ${uri} $.mimeType`,
            message: `${uri} is listed as ${listed.mimeType === undefined ? 'no MIME type' : JSON.stringify(listed.mimeType)}, not ${APP_MIME_TYPE}: a host choosing templates from the listing passes it over`,
            fix: `list it with mimeType: "${APP_MIME_TYPE}"`,
            source: SOURCES.uiResourceFormat,
          }),
        );
      }
      return findings;
    });
  },
};
