/**
 * The published server.json schemas toolrun ships (schemas/server-json/<date>.schema.json, copied
 * unchanged from https://github.com/modelcontextprotocol/static `schemas/<date>/server.schema.json`
 * @ a9ba437d9fbbe92076a24b20d56449ac7c7786ac), and which one a file's `$schema` names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Oldest first. 2025-07-09 is the snake_case one. */
export const SHIPPED_SERVER_SCHEMA_DATES = ['2025-07-09', '2025-09-16', '2025-09-29', '2025-10-11', '2025-10-17', '2025-12-11'] as const;
export type ServerSchemaDate = (typeof SHIPPED_SERVER_SCHEMA_DATES)[number];

export const NEWEST_SERVER_SCHEMA_DATE: ServerSchemaDate = SHIPPED_SERVER_SCHEMA_DATES[SHIPPED_SERVER_SCHEMA_DATES.length - 1];

/** The URL each schema's `$id` (and a file's `$schema`) gives for a date. */
export function serverSchemaUrl(date: ServerSchemaDate): string {
  return `https://static.modelcontextprotocol.io/schemas/${date}/server.schema.json`;
}

// The registry's older documents name the same files under modelcontextprotocol.io (before the static
// host existed); both forms name one dated schema.
const SCHEMA_URL = /^https?:\/\/(?:static\.)?modelcontextprotocol\.io\/schemas\/(\d{4}-\d{2}-\d{2})\/server\.schema\.json$/;

/** The shipped date a `$schema` URL names, or undefined for a URL toolrun ships no schema for. */
export function shippedDateOf(schemaUrl: string): ServerSchemaDate | undefined {
  const date = SCHEMA_URL.exec(schemaUrl.trim())?.[1];
  return SHIPPED_SERVER_SCHEMA_DATES.find((shipped) => shipped === date);
}

const loaded = new Map<ServerSchemaDate, Record<string, unknown>>();

/** The schema document of one date (read once). */
export function loadServerSchema(date: ServerSchemaDate): Record<string, unknown> {
  const known = loaded.get(date);
  if (known) return known;
  const document = JSON.parse(readFileSync(`${serverSchemasFolder()}/${date}.schema.json`, 'utf8')) as Record<string, unknown>;
  loaded.set(date, document);
  return document;
}

// Built, this module is a chunk in dist/ (the CLI) or dist/lib/ (the library); from source it is
// src/verify/server-json/. schemas/ sits at the package root (package.json "files").
let folderFound: string | undefined;
function serverSchemasFolder(): string {
  if (folderFound) return folderFound;
  for (const up of ['../', '../../', '../../../']) {
    const path = fileURLToPath(new URL(`${up}schemas/server-json`, import.meta.url));
    if (existsSync(`${path}/${NEWEST_SERVER_SCHEMA_DATE}.schema.json`)) return (folderFound = path);
  }
  throw new Error('schemas/server-json is missing from the toolrun package: reinstall toolrun');
}
