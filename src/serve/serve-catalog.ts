import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * What `toolrun serve` offers (SPEC §20): the local tools under their own names and every server's
 * tools as `SERVER__TOOL` (the provider-safe form `list --format` uses; `--separator` changes it),
 * filtered by `--tools` (only these) and `--deny` (never these), globs on the served name.
 */
export type ServedTarget = { kind: 'local'; name: string } | { kind: 'mcp'; server: string; tool: string };

export interface ServedTool {
  name: string;
  definition: Tool;
  target: ServedTarget;
}

export interface NameFilter {
  allow: RegExp[];
  deny: RegExp[];
}

/**
 * `*` any run of characters, `?` one; everything else as it is. A glob matches the whole name, line
 * terminators included (the `s` flag): an upstream's `secret\nx` is still matched by `--deny 'secret*'`.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    's',
  );
}

export function nameFilter(allow: string[], deny: string[]): NameFilter {
  return { allow: allow.map(globToRegExp), deny: deny.map(globToRegExp) };
}

export function isServed(name: string, filter: NameFilter): boolean {
  if (filter.deny.some((pattern) => pattern.test(name))) return false;
  return filter.allow.length === 0 || filter.allow.some((pattern) => pattern.test(name));
}

/** The served name of a server's tool, prompt or resource name. */
export function servedName(server: string, name: string, separator: string): string {
  return `${server}${separator}${name}`;
}

/**
 * `SERVER__NAME` back to its server and name: the longest configured server name that prefixes it
 * wins. Unambiguous because no served server's name holds the separator (serve refuses one that does,
 * assertNoSeparatorIn): `h`'s tool `x__y` is `h__x__y`, and no server `h__x` can claim it.
 */
export function splitServedName(name: string, servers: string[], separator: string): { server: string; name: string } | undefined {
  const owner = servers.filter((server) => name.startsWith(`${server}${separator}`)).sort((a, b) => b.length - a.length)[0];
  return owner === undefined ? undefined : { server: owner, name: name.slice(owner.length + separator.length) };
}

/** A server whose name holds the separator would make its names and another's the same: refused before anything starts. */
export function serverNameHoldingSeparator(servers: string[], separator: string): string | undefined {
  return servers.find((server) => server.includes(separator));
}

/** A provider-safe separator (`[A-Za-z0-9_-]`, as `list --format` needs) that no server name holds, to suggest. */
export function separatorNoneHolds(servers: string[]): string {
  for (let length = 2; ; length += 1) for (const character of ['_', '-']) if (!servers.some((server) => server.includes(character.repeat(length)))) return character.repeat(length);
}
