import type { OAuthSettings } from '../config/config-types.js';

/** A remote server as the OAuth code needs it: its name, its MCP endpoint, its entry's `oauth` block. */
export interface AuthServer {
  name: string;
  url: string;
  oauth?: OAuthSettings;
}
