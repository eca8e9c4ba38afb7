import { ErrorCode, type Prompt, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { listItems } from '../mcp/list-items.js';
import { maskKnownSecretsDeep } from '../secrets/mask-secrets.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { fitsUriTemplate } from '../text/uri-template-match.js';
import { rpcError } from './rpc-error.js';
import { servedName, splitServedName } from './serve-catalog.js';
import { upstreamError } from './upstream-error.js';

/** What the lists need of the gateway (serve-gateway.ts): its upstreams, and when they are ready. */
export interface Upstreams {
  readonly options: { servers: string[]; separator: string; timeoutMs?: number; warn?: (message: string) => void };
  readonly ready: Promise<void>;
  connection(server: string): Promise<ServerConnection>;
  connected(capability: 'resources' | 'prompts' | 'logging'): ServerConnection[];
}

/**
 * The served URI of a resource that more than one upstream lists: the server's name and the URI
 * under a scheme of toolrun's own, so that a read names its server as a prefixed name does.
 */
const UPSTREAM_SCHEME = 'toolrun-upstream:';
export function upstreamUri(server: string, uri: string): string {
  return `${UPSTREAM_SCHEME}${encodeURIComponent(server)}/${uri}`;
}
function fromUpstreamUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(UPSTREAM_SCHEME)) return undefined;
  const rest = uri.slice(UPSTREAM_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  try {
    return { server: decodeURIComponent(rest.slice(0, slash)), uri: rest.slice(slash + 1) };
  } catch {
    return undefined;
  }
}

/**
 * `toolrun serve`'s resources and prompts (SPEC §20): every upstream's, listed together with the
 * server's prefix on their names (resources keep their URIs), and each read or get sent to the
 * server it belongs to. A URI that several upstreams list is served once per server, as
 * `toolrun-upstream:SERVER/URI`, with a warning: a read of it is never sent to whichever server
 * happened to list it last.
 */
export class ServedLists {
  /** Which servers listed each resource URI, in config order, from the latest resources/list. */
  readonly #uriOwners = new Map<string, string[]>();
  /** The URIs already warned about, so a client's every list does not repeat it. */
  readonly #warned = new Set<string>();

  constructor(readonly upstreams: Upstreams) {}

  async listResources(): Promise<Resource[]> {
    await this.upstreams.ready;
    const resources = await this.#gather('resources', (server, resource: Resource) => ({ ...resource, name: this.#prefixed(server, resource.name), _server: server }));
    return resources.map(({ _server: server, ...resource }) => {
      const owners = this.#uriOwners.get(resource.uri) ?? [];
      if (owners.length < 2) return resource;
      if (!this.#warned.has(resource.uri)) {
        this.#warned.add(resource.uri);
        this.upstreams.options.warn?.(
          `resource URI ${JSON.stringify(resource.uri)} is listed by ${owners.join(' and ')}: served as ${owners.map((owner) => upstreamUri(owner, resource.uri)).join(' and ')}`,
        );
      }
      return { ...resource, uri: upstreamUri(server, resource.uri) };
    });
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    await this.upstreams.ready;
    return this.#gather('resourceTemplates', (server, template: ResourceTemplate) => ({ ...template, name: this.#prefixed(server, template.name) }));
  }

  async listPrompts(): Promise<Prompt[]> {
    await this.upstreams.ready;
    return this.#gather('prompts', (server, prompt: Prompt) => ({ ...prompt, name: this.#prefixed(server, prompt.name) }));
  }

  /**
   * A resource's server: the one that listed the URI, else those with a template it fits. A URI no
   * server lists or templates is not sent anywhere: -32002, as the spec has a server say it.
   */
  async readResource(uri: string, signal: AbortSignal, traceContext?: { traceparent: string; tracestate?: string }): Promise<Record<string, unknown>> {
    await this.upstreams.ready;
    const named = fromUpstreamUri(uri);
    if (named && !this.upstreams.options.servers.includes(named.server)) throw rpcError(-32002, `Resource not found: ${uri}`, { uri });
    const owners = named ? [named.server] : await this.#resourceOwners(uri);
    // Listed by several: which one is meant cannot be known from the URI alone.
    if (!named && (this.#uriOwners.get(uri)?.length ?? 0) > 1)
      throw rpcError(ErrorCode.InvalidParams, `Resource URI ${uri} is listed by ${owners.join(' and ')}: read ${owners.map((owner) => upstreamUri(owner, uri)).join(' or ')}`, { uri });
    let last: Error | undefined;
    for (const server of owners) {
      const connection = await this.upstreams.connection(server);
      try {
        const result = maskKnownSecretsDeep(
          await connection.client.request('resources/read', { uri: named?.uri ?? uri, ...(traceContext ? { _meta: traceContext } : {}) }, { signal, timeout: this.upstreams.options.timeoutMs }),
        ) as Record<string, unknown>;
        // The contents name the URI the client asked for.
        if (named && Array.isArray(result.contents))
          return { ...result, contents: result.contents.map((content: Record<string, unknown>) => (content.uri === named.uri ? { ...content, uri } : content)) };
        return result;
      } catch (error) {
        last = upstreamError(server, connection, error);
      }
    }
    if (last && owners.length === 1) throw last;
    throw rpcError(-32002, `Resource not found: ${uri}`, { uri });
  }

  async getPrompt(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal, traceContext?: { traceparent: string; tracestate?: string }): Promise<Record<string, unknown>> {
    await this.upstreams.ready;
    const split = splitServedName(name, this.upstreams.options.servers, this.upstreams.options.separator);
    if (!split) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    const connection = await this.upstreams.connection(split.server);
    try {
      return maskKnownSecretsDeep(
        await connection.client.request(
          'prompts/get',
          { name: split.name, ...(args ? { arguments: args } : {}), ...(traceContext ? { _meta: traceContext } : {}) },
          { signal, timeout: this.upstreams.options.timeoutMs },
        ),
      ) as Record<string, unknown>;
    } catch (error) {
      throw upstreamError(split.server, connection, error);
    }
  }

  #prefixed(server: string, name: string): string {
    return servedName(server, name, this.upstreams.options.separator);
  }

  async #resourceOwners(uri: string): Promise<string[]> {
    if (!this.#uriOwners.has(uri)) await this.listResources().catch(() => []);
    const listed = this.#uriOwners.get(uri);
    if (listed) return listed;
    const templates = await Promise.all(
      this.upstreams.connected('resources').map(async (connection) => {
        const items = await listItems(connection.client, 'resourceTemplates', { timeout: this.upstreams.options.timeoutMs }).catch(() => []);
        return items.some((template) => fitsUriTemplate(template.uriTemplate, uri)) ? [connection.name] : [];
      }),
    );
    return templates.flat();
  }

  async #gather<K extends 'resources' | 'resourceTemplates' | 'prompts', T, R>(kind: K, rename: (server: string, item: T) => R): Promise<R[]> {
    const capability = kind === 'prompts' ? 'prompts' : 'resources';
    const connections = this.upstreams.connected(capability);
    const lists = await Promise.all(connections.map(async (connection) => (await listItems(connection.client, kind, { timeout: this.upstreams.options.timeoutMs }).catch(() => [])) as T[]));
    if (kind === 'resources') {
      // Owners in config order, whichever server answered first.
      this.#uriOwners.clear();
      lists.forEach((items, index) => {
        for (const item of items) {
          const uri = String((item as { uri: string }).uri);
          const owners = this.#uriOwners.get(uri) ?? [];
          if (!owners.includes(connections[index]!.name)) owners.push(connections[index]!.name);
          this.#uriOwners.set(uri, owners);
        }
      });
    }
    return lists.flatMap((items, index) => items.map((item) => rename(connections[index]!.name, item)));
  }
}
