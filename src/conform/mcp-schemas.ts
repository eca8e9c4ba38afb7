/**
 * The official MCP JSON Schemas shipped in schemas/mcp/<revision>/schema.json (copied unchanged from
 * the spec repository by scripts/update-mcp-schemas.js), each loaded once, with an Ajv per revision
 * that compiles a definition only when a frame first needs it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

type SchemaNode = Record<string, unknown>;

export interface McpSchema {
  revision: string;
  /** `definitions` (draft-07: 2025-06-18 and older) or `$defs` (2020-12: 2025-11-25 and newer). */
  defsKey: 'definitions' | '$defs';
  defs: Record<string, SchemaNode>;
  /** Request and notification definitions by their `method` const, e.g. tools/list → ListToolsRequest. */
  requests: Map<string, string>;
  notifications: Map<string, string>;
  /** A validator for one definition (compiled on first use, then cached); undefined when there is no such definition. */
  validator(definition: string): ValidateFunction | undefined;
  /** A validator for any JSON pointer into the file, e.g. `#/$defs/ContentBlock/anyOf/2` (one branch of a union). */
  validatorAt(pointer: string): ValidateFunction | undefined;
}

const REVISION_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const loaded = new Map<string, McpSchema | undefined>();

/** The schema of one revision, or undefined when toolrun ships none for it. */
export function loadMcpSchema(revision: string): McpSchema | undefined {
  if (loaded.has(revision)) return loaded.get(revision);
  const file = REVISION_PATTERN.test(revision) ? schemaFile(revision) : undefined;
  const schema = file ? indexSchema(revision, JSON.parse(readFileSync(file, 'utf8')) as SchemaNode) : undefined;
  loaded.set(revision, schema);
  return schema;
}

/** The revisions toolrun ships a schema for, oldest first. */
export function shippedRevisions(): string[] {
  const folder = schemasFolder();
  return folder
    ? readdirSync(folder)
        .filter((name) => REVISION_PATTERN.test(name))
        .sort()
    : [];
}

function schemaFile(revision: string): string | undefined {
  const folder = schemasFolder();
  const path = folder && `${folder}/${revision}/schema.json`;
  return path && existsSync(path) ? path : undefined;
}

// Built, this module is a chunk in dist/ (the CLI) or dist/lib/ (the library); from source it is
// src/conform/. schemas/ sits at the package root beside all three (package.json "files").
let folderFound: string | undefined;
function schemasFolder(): string | undefined {
  if (folderFound) return folderFound;
  for (const up of ['../', '../../']) {
    const path = fileURLToPath(new URL(`${up}schemas/mcp`, import.meta.url));
    if (existsSync(`${path}/README.md`)) return (folderFound = path);
  }
  return undefined;
}

function indexSchema(revision: string, document: SchemaNode): McpSchema {
  const defsKey = document.$defs ? '$defs' : 'definitions';
  const defs = (document[defsKey] ?? {}) as Record<string, SchemaNode>;
  const requests = new Map<string, string>();
  const notifications = new Map<string, string>();
  for (const [name, definition] of Object.entries(defs)) {
    const method = methodConst(definition);
    // The unions (ClientRequest, ServerNotification…) may be one member itself in a revision with a
    // single one (2026-07-28's ClientNotification is CancelledNotification): keep the member's own name.
    if (!method || /^(Client|Server)/.test(name)) continue;
    if (name.endsWith('Request')) requests.set(method, name);
    else if (name.endsWith('Notification')) notifications.set(method, name);
  }
  const dialect = typeof document.$schema === 'string' ? document.$schema : '';
  // The SDK's own Ajv options: unknown keywords tolerated, formats checked, every error collected
  // (the caller keeps the deepest). Meta-validation is off: the file is the spec's, not a server's.
  // verbose: a failed union's error carries its branches, so the one the frame meant can be re-checked.
  const options = { strict: false, validateFormats: true, validateSchema: false, allErrors: true, verbose: true, logger: false } as const;
  const ajv = addFormats(dialect.includes('2020-12') ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options));
  const key = `mcp-${revision}`;
  // Without its $schema the file is compiled by the Ajv chosen above (Ajv would otherwise look the
  // meta-schema up); everything else is the file as published.
  const { $schema: _dialect, ...body } = document;
  ajv.addSchema(body, key);
  const cache = new Map<string, ValidateFunction | undefined>();
  const validatorAt = (pointer: string): ValidateFunction | undefined => {
    if (!cache.has(pointer)) cache.set(pointer, ajv.getSchema(`${key}${pointer}`));
    return cache.get(pointer);
  };
  return {
    revision,
    defsKey,
    defs,
    requests,
    notifications,
    validator: (definition) => (defs[definition] ? validatorAt(`#/${defsKey}/${definition}`) : undefined),
    validatorAt,
  };
}

function methodConst(definition: SchemaNode): string | undefined {
  const properties = definition.properties as Record<string, SchemaNode> | undefined;
  const method = properties?.method?.const;
  return typeof method === 'string' ? method : undefined;
}

/** The schema node a `#/…` pointer names in a revision's file (to read a union's branches). */
export function schemaNodeAt(schema: McpSchema, pointer: string): unknown {
  const parts = pointer.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = { [schema.defsKey]: schema.defs };
  for (const part of parts) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
