import type { OAuthSettings } from '../config/config-types.js';

/** A remote server as the OAuth code needs it: its name, its MCP endpoint, its entry's `oauth` block. */
export interface AuthServer {
  name: string;
  url: string;
  oauth?: OAuthSettings;
  /** Its protocol choice (SPEC §10): an entry pinned to 2026-07-28 is probed for its challenge with `server/discover`, never `initialize`. */
  protocol?: { setting: string };
}
