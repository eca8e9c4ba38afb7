import { ErrorCode, type Prompt, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { listItems } from '../mcp/list-items.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { fitsUriTemplate } from '../text/uri-template-match.js';
import { rpcError } from './rpc-error.js';
import { servedName, splitServedName } from './serve-catalog.js';
import { upstreamError } from './upstream-error.js';

/** What the lists need of the gateway (serve-gateway.ts): its upstreams, and when they are ready. */
export interface Upstreams {
  readonly options: { servers: string[]; separator: string; timeoutMs?: number };
  readonly ready: Promise<void>;
  connection(server: string): Promise<ServerConnection>;
  connected(capability: 'resources' | 'prompts' | 'logging'): ServerConnection[];
}

/**
 * `toolrun serve`'s resources and prompts (SPEC §20): every upstream's, listed together with the
 * server's prefix on their names (resources keep their URIs), and each read or get sent to the
 * server it belongs to.
 */
export class ServedLists {
  /** Which server listed each resource URI, from the latest resources/list. */
  readonly #uriOwners = new Map<string, string>();

  constructor(readonly upstreams: Upstreams) {}

  async listResources(): Promise<Resource[]> {
    await this.upstreams.ready;
    return this.#gather('resources', (server, resource: Resource) => ({ ...resource, name: this.#prefixed(server, resource.name) }));
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
  async readResource(uri: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    await this.upstreams.ready;
    const owners = await this.#resourceOwners(uri);
    let last: Error | undefined;
    for (const server of owners) {
      const connection = await this.upstreams.connection(server);
      try {
        return await connection.client.request('resources/read', { uri }, { signal, timeout: this.upstreams.options.timeoutMs });
      } catch (error) {
        last = upstreamError(server, connection, error);
      }
    }
    if (last && owners.length === 1) throw last;
    throw rpcError(-32002, `Resource not found: ${uri}`, { uri });
  }

  async getPrompt(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>> {
    await this.upstreams.ready;
    const split = splitServedName(name, this.upstreams.options.servers, this.upstreams.options.separator);
    if (!split) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    const connection = await this.upstreams.connection(split.server);
    try {
      return await connection.client.request('prompts/get', { name: split.name, ...(args ? { arguments: args } : {}) }, { signal, timeout: this.upstreams.options.timeoutMs });
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
    if (listed) return [listed];
    const templates = await Promise.all(
      this.upstreams.connected('resources').map(async (connection) => {
        const items = await listItems(connection.client, 'resourceTemplates', { timeout: this.upstreams.options.timeoutMs }).catch(() => []);
        return items.some((template) => fitsUriTemplate(template.uriTemplate, uri)) ? [connection.name] : [];
      }),
    );
    return templates.flat();
  }

  async #gather<K extends 'resources' | 'resourceTemplates' | 'prompts', T>(kind: K, rename: (server: string, item: T) => T): Promise<T[]> {
    const capability = kind === 'prompts' ? 'prompts' : 'resources';
    const lists = await Promise.all(
      this.upstreams.connected(capability).map(async (connection) => {
        const items = (await listItems(connection.client, kind, { timeout: this.upstreams.options.timeoutMs }).catch(() => [])) as T[];
        if (kind === 'resources') for (const item of items) this.#uriOwners.set(String((item as { uri: string }).uri), connection.name);
        return items.map((item) => rename(connection.name, item));
      }),
    );
    return lists.flat();
  }
}
