import type { Finding } from './app-rule.js';
import { checkApps } from './apps-rules.js';
import { cspOf, listedEntry, readItem, toolUiOf, uiUris, type AppCsp, type AppsEvidence } from './apps-wire.js';

/** `toolrun mcp apps --json`: each server's App tools and UI resources, and the rules' findings. */
export interface AppsReport {
  servers: Array<{
    server: string;
    /** The server declares io.modelcontextprotocol/ui in its capabilities. */
    extension: boolean;
    tools: Array<{ name: string; resourceUri: string | null; visibility: unknown }>;
    resources: Array<{
      uri: string;
      listed: boolean;
      mimeType: string | null;
      /** The CSP a host applies (the read content item's, else the list entry's); null when none is declared. */
      csp: AppCsp | null;
      /** Where it is declared: read, list, both, or null. */
      cspDeclaredIn: 'read' | 'list' | 'both' | null;
      domain: string | null;
      /** The HTML's size in UTF-8 bytes; null when it could not be read. */
      bytes: number | null;
      readError?: string;
    }>;
    listError?: string;
  }>;
  findings: Finding[];
  errors: number;
}

export function buildAppsReport(servers: AppsEvidence[]): AppsReport {
  const findings = checkApps(servers);
  return {
    servers: servers.map((evidence) => ({
      server: evidence.server,
      extension: evidence.declared,
      tools: evidence.tools.flatMap((tool) => {
        const ui = toolUiOf(tool);
        return ui ? [{ name: ui.tool, resourceUri: ui.resourceUri ?? null, visibility: ui.visibility ?? ['model', 'app'] }] : [];
      }),
      resources: uiUris(evidence).map((uri) => {
        const item = readItem(evidence, uri);
        const listed = listedEntry(evidence, uri);
        const outcome = evidence.reads.get(uri);
        const readCsp = cspOf(item);
        const listCsp = cspOf(listed);
        const html = typeof item?.text === 'string' ? Buffer.byteLength(item.text) : typeof item?.blob === 'string' ? Buffer.from(item.blob, 'base64').length : null;
        const domain = ((item?._meta as { ui?: { domain?: unknown } } | undefined)?.ui?.domain ?? (listed?._meta as { ui?: { domain?: unknown } } | undefined)?.ui?.domain) as unknown;
        return {
          uri,
          listed: listed !== undefined,
          mimeType: typeof item?.mimeType === 'string' ? item.mimeType : typeof listed?.mimeType === 'string' ? listed.mimeType : null,
          csp: readCsp ?? listCsp ?? null,
          cspDeclaredIn: readCsp && listCsp ? 'both' : readCsp ? 'read' : listCsp ? 'list' : null,
          domain: typeof domain === 'string' ? domain : null,
          bytes: html,
          ...(outcome && 'error' in outcome ? { readError: outcome.error } : {}),
        };
      }),
      ...(evidence.listError ? { listError: evidence.listError } : {}),
    })),
    findings,
    errors: findings.filter((finding) => finding.severity === 'error').length,
  };
}
