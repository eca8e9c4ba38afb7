/**
 * A server's API as `toolrun mcp snapshot` saves it (SPEC §16): what a client can list, with the
 * schemas, and nothing that changes from one run to the next. Each list is sorted by name (uri for
 * resources, uriTemplate for templates) and every object's keys are sorted, so a re-run is
 * byte-identical and a committed snapshot only changes when the API does.
 */
export interface ApiSnapshot {
  toolrunSnapshot: 1;
  /**
   * serverInfo.name only: the version is left out, as a release that bumps it without touching the
   * API must neither rewrite the committed file nor count as a change.
   */
  server: { name: string };
  /** The revision negotiated when the snapshot was taken: informational, never compared. */
  protocolVersion?: string;
  tools: ApiItem[];
  resources: ApiItem[];
  resourceTemplates: ApiItem[];
  prompts: ApiItem[];
  /** The Skills extension's entries (uri, frontmatter, files), only for a server that declares it (src/extensions/skills/skills-api.ts). */
  skills?: ApiItem[];
}

/** A tool, resource, template or prompt definition, as the server listed it (volatile fields out). */
export type ApiItem = Record<string, unknown>;

/** The four lists of a snapshot, with the field that names each item. */
export const SECTIONS = [
  { list: 'tools', key: 'name', method: 'tools/list', capability: 'tools' },
  { list: 'resources', key: 'uri', method: 'resources/list', capability: 'resources' },
  { list: 'resourceTemplates', key: 'uriTemplate', method: 'resources/templates/list', capability: 'resources' },
  { list: 'prompts', key: 'name', method: 'prompts/list', capability: 'prompts' },
] as const;

export type SectionName = (typeof SECTIONS)[number]['list'];

/**
 * An API read from a snapshot, a server or a recording. A recording may hold no answer for a list
 * (check-stdout records tools/list only): that list is absent, so it is not compared, rather than
 * taken as empty and every item of the other side called removed.
 */
export interface ApiSource {
  /** How to name it in messages: `api.json`, `server 'x'`, `recording x.rec`. */
  label: string;
  snapshot: Omit<ApiSnapshot, SectionName> & Partial<Pick<ApiSnapshot, SectionName>>;
}
