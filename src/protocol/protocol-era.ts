/**
 * The two protocol eras of MCP (SPEC §10): the 2025-11-25 family, opened with `initialize`, and
 * 2026-07-28, where every request carries its own `_meta` envelope and `server/discover` replaces
 * the handshake. Which one a server speaks is chosen per server (`protocol` in its entry or
 * `--protocol`; `auto` by default) and recorded here with how it was chosen, for doctor and time.
 */

export type ProtocolEra = 'legacy' | 'modern';

/** The modern revisions toolrun speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** The legacy revisions toolrun speaks (those of @modelcontextprotocol/sdk 1.x), newest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_MODERN_VERSION = MODERN_PROTOCOL_VERSIONS[0];

/** `auto`, or one revision toolrun speaks. */
export type ProtocolSetting = 'auto' | string;

/** Every value `protocol` / `--protocol` accepts, for messages. */
export const PROTOCOL_SETTINGS = ['auto', ...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

export function isKnownProtocolSetting(value: string): boolean {
  return PROTOCOL_SETTINGS.includes(value);
}

/** Revisions are dates: the modern era starts with 2026-07-28. */
export function eraOfVersion(version: string): ProtocolEra {
  return version >= LATEST_MODERN_VERSION ? 'modern' : 'legacy';
}

/** How the era of a connection was chosen, as doctor reports it. */
export interface EraChoice {
  era: ProtocolEra;
  /** The revision the connection uses. */
  version: string;
  /** 'config', '--protocol' or 'auto'. */
  chosenBy: 'config' | 'flag' | 'auto';
  /** One line: what was sent and what the server answered. */
  how: string;
  /** The handshake request that opened the connection: 'server/discover' or 'initialize'. */
  handshake: 'server/discover' | 'initialize';
  /** server/discover was sent first (auto), whatever the handshake then was. */
  probed: boolean;
}

/** The `_meta` keys a modern request carries instead of a handshake. */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The modern per-request envelope, for toolrun's own probe. */
export function modernEnvelope(version: string, clientVersion: string): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_INFO_META_KEY]: { name: 'toolrun', version: clientVersion },
    [CLIENT_CAPABILITIES_META_KEY]: {},
  };
}

/** JSON-RPC error code of UnsupportedProtocolVersionError (2026-07-28); `data.supported` lists what the server speaks. */
export const UNSUPPORTED_PROTOCOL_VERSION_CODE = -32022;
