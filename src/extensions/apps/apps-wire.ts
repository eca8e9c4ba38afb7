/**
 * The MCP Apps extension's wire names (SEP-1865, `io.modelcontextprotocol/ui`), apart from the
 * rules that judge them: the constants are those of `@modelcontextprotocol/ext-apps` 2.0.4
 * (dist/src/constants.d.ts, server/index.d.ts, spec.types.d.ts) and of the stable specification,
 * github.com/modelcontextprotocol/ext-apps specification/2026-01-26/apps.mdx.
 */

/** The extension's key in `capabilities.extensions` (ext-apps server/index.d.ts `EXTENSION_ID`). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an App's HTML (ext-apps constants.d.ts `RESOURCE_MIME_TYPE`; apps.mdx "Content Requirements"). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * What toolrun claims at the handshake when it probes Apps: the MIME types it understands
 * (ext-apps spec.types.d.ts `McpUiClientCapabilities`: "Must include text/html;profile=mcp-app").
 * Some servers list their App tools only to a client that claims it (ext-apps `getUiCapability`).
 */
export const APPS_CLIENT_EXTENSIONS: Record<string, Record<string, unknown>> = { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } };

/** The deprecated flat key for a tool's UI (ext-apps constants.d.ts `RESOURCE_URI_META_KEY`; apps.mdx "Deprecation notice"). */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The scheme every UI resource's URI starts with (apps.mdx "Content Requirements": "URI MUST start with ui://"). */
export const UI_SCHEME = 'ui://';

/** The `visibility` values (ext-apps spec.types.d.ts `McpUiToolVisibility`). */
export const VISIBILITIES = ['model', 'app'] as const;

/** The `_meta.ui.csp` fields (ext-apps spec.types.d.ts `McpUiResourceCsp`). */
export const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
export type CspField = (typeof CSP_FIELDS)[number];
export type AppCsp = Partial<Record<CspField, string[]>>;

/**
 * The keys ChatGPT reads beside the standard ones (OpenAI Apps SDK reference, "_meta fields":
 * developers.openai.com/apps-sdk/reference): `openai/widgetCSP` with snake_case lists,
 * `openai/widgetDomain`, `openai/widgetPrefersBorder`, and the tool's `openai/outputTemplate`.
 */
export const OPENAI_WIDGET_CSP = 'openai/widgetCSP';
export const OPENAI_WIDGET_DOMAIN = 'openai/widgetDomain';
export const OPENAI_PREFERS_BORDER = 'openai/widgetPrefersBorder';
export const OPENAI_OUTPUT_TEMPLATE = 'openai/outputTemplate';
/** `openai/widgetCSP`'s fields and the standard fields they stand for (its `redirect_domains` has no standard twin). */
export const OPENAI_CSP_FIELDS: Record<string, CspField> = {
  connect_domains: 'connectDomains',
  resource_domains: 'resourceDomains',
  frame_domains: 'frameDomains',
};

/** Where each rule's text comes from. */
export const SOURCES = {
  spec: 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx',
  uiResourceFormat: 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#ui-resource-format',
  resourceDiscovery: 'https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx#resource-discovery',
  /** ext-apps 2.0.4 spec.types.d.ts, McpUiToolMeta: csp/permissions typed `never` on the tool, read from resources/read, list as fallback. */
  toolMetaTypes: 'https://github.com/modelcontextprotocol/ext-apps/blob/main/src/spec.types.ts',
  openaiReference: 'https://developers.openai.com/apps-sdk/reference',
  /** CSP only on the read answer; a host building its CSP from resources/list saw none (blank frames). */
  posthogListOnly: 'https://github.com/PostHog/posthog/pull/76899',
  posthogList: 'https://github.com/PostHog/posthog/pull/98901',
  /** `openai/widgetCSP` beside `ui.csp`, each host reading its own. */
  posthogOpenai: 'https://github.com/PostHog/posthog/pull/69612',
  /** csp/prefersBorder declared on the tool, ignored by hosts. */
  apifyOnTool: 'https://github.com/apify/apify-mcp-server/pull/1190',
  /** ChatGPT: "Widget CSP is not set for this template", the CSP sat on the tool only. */
  redmineNotSet: 'https://github.com/jztan/redmine-mcp-server/issues/249',
} as const;

/** One server's Apps surface as toolrun saw it: everything the rules judge, gathered once (collect-apps.ts). */
export interface AppsEvidence {
  server: string;
  /** The server's `capabilities.extensions` holds io.modelcontextprotocol/ui. */
  declared: boolean;
  /** tools/list, every page, the definitions as sent. */
  tools: Array<Record<string, unknown>>;
  /** resources/list, every page; undefined when it failed (listError says why) or is not served. */
  resources?: Array<Record<string, unknown>>;
  listError?: string;
  /** resources/read of each UI URI the tools name. */
  reads: Map<string, ReadOutcome>;
}

export type ReadOutcome = { contents: Array<Record<string, unknown>> } | { error: string };

/** A tool's UI as it declares it. */
export interface ToolUi {
  tool: string;
  /** `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`. */
  resourceUri?: string;
  /** Where the URI was found: `$._meta.ui.resourceUri` or `$._meta["ui/resourceUri"]`. */
  path: string;
  visibility?: unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A definition's `_meta.ui` object, if any. */
export function uiMetaOf(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const meta = item?._meta;
  if (!isRecord(meta)) return undefined;
  return isRecord(meta.ui) ? meta.ui : undefined;
}

export function metaOf(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return isRecord(item?._meta) ? item._meta : undefined;
}

/**
 * The tool's UI declaration, or undefined for a tool with none: a `resourceUri` (ext-apps
 * constants.d.ts: hosts check `_meta.ui.resourceUri`, then the flat key), or only a `visibility`
 * (an App-only tool the App calls, with no UI of its own, as server-pdf's save_pdf).
 */
export function toolUiOf(tool: Record<string, unknown>): ToolUi | undefined {
  const ui = uiMetaOf(tool);
  const legacy = metaOf(tool)?.[LEGACY_RESOURCE_URI_KEY];
  const name = String(tool.name);
  if (ui?.resourceUri !== undefined) return { tool: name, resourceUri: typeof ui.resourceUri === 'string' ? ui.resourceUri : undefined, path: '$._meta.ui.resourceUri', visibility: ui.visibility };
  if (legacy !== undefined) return { tool: name, resourceUri: typeof legacy === 'string' ? legacy : undefined, path: `$._meta["${LEGACY_RESOURCE_URI_KEY}"]`, visibility: ui?.visibility };
  if (ui?.visibility !== undefined) return { tool: name, path: '$._meta.ui.visibility', visibility: ui.visibility };
  return undefined;
}

/** Every tool's UI, in listing order. */
export function toolUis(evidence: AppsEvidence): ToolUi[] {
  return evidence.tools.flatMap((tool) => toolUiOf(tool) ?? []);
}

/** The distinct ui:// URIs the tools name, in the order first named. */
export function uiUris(evidence: AppsEvidence): string[] {
  return [...new Set(toolUis(evidence).flatMap((ui) => (ui.resourceUri?.startsWith(UI_SCHEME) ? [ui.resourceUri] : [])))];
}

/** The resources/list entry for a URI. */
export function listedEntry(evidence: AppsEvidence, uri: string): Record<string, unknown> | undefined {
  return evidence.resources?.find((resource) => resource.uri === uri);
}

/** The content item of the read answer for the URI (the one whose uri matches, else the first). */
export function readItem(evidence: AppsEvidence, uri: string): Record<string, unknown> | undefined {
  const outcome = evidence.reads.get(uri);
  if (!outcome || 'error' in outcome) return undefined;
  return outcome.contents.find((item) => item.uri === uri) ?? outcome.contents[0];
}

/** The HTML of a read content item: its text, or its base64 blob decoded. */
export function htmlOf(item: Record<string, unknown> | undefined): string | undefined {
  if (!item) return undefined;
  if (typeof item.text === 'string') return item.text;
  if (typeof item.blob === 'string') return Buffer.from(item.blob, 'base64').toString('utf8');
  return undefined;
}

/** The standard CSP on a definition (`_meta.ui.csp`), normalised to string lists; undefined when absent. */
export function cspOf(item: Record<string, unknown> | undefined): AppCsp | undefined {
  const csp = uiMetaOf(item)?.csp;
  if (!isRecord(csp)) return undefined;
  const out: AppCsp = {};
  for (const field of CSP_FIELDS) if (Array.isArray(csp[field])) out[field] = (csp[field] as unknown[]).filter((value): value is string => typeof value === 'string');
  return out;
}

/** ChatGPT's `openai/widgetCSP`, in the standard's field names; undefined when absent. */
export function openaiCspOf(item: Record<string, unknown> | undefined): AppCsp | undefined {
  const csp = metaOf(item)?.[OPENAI_WIDGET_CSP];
  if (!isRecord(csp)) return undefined;
  const out: AppCsp = {};
  for (const [field, standard] of Object.entries(OPENAI_CSP_FIELDS))
    if (Array.isArray(csp[field])) out[standard] = (csp[field] as unknown[]).filter((value): value is string => typeof value === 'string');
  return out;
}

/** Two CSPs as sets: the same origins in each of `fields` (an omitted field is an empty one: the spec's default). */
export function sameCsp(a: AppCsp, b: AppCsp, fields: readonly CspField[] = CSP_FIELDS): boolean {
  return fields.every((field) => {
    const left = new Set(a[field] ?? []);
    const right = new Set(b[field] ?? []);
    return left.size === right.size && [...left].every((value) => right.has(value));
  });
}

export function describeCsp(csp: AppCsp): string {
  const parts = CSP_FIELDS.flatMap((field) => (csp[field]?.length ? [`${field} ${csp[field]!.join(' ')}`] : []));
  return parts.length === 0 ? 'nothing beyond the default' : parts.join('; ');
}
