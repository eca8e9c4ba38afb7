import type { ConformCheck } from './check-types.js';
import { handshakeCheck, initializedCheck, versionNegotiationCheck } from './checks/lifecycle-checks.js';
import { CONTENT_CHECKS } from './checks/content-checks.js';
import { appsExtension } from './checks/apps-extension.js';
import { frameSchemaCheck } from './checks/frame-schema-check.js';
import { framingCheck, shutdownCheck, stdoutPurityCheck } from './checks/transport-checks.js';

export interface ConformProfile {
  name: string;
  version: number;
  /** In the order they run; the shutdown check ends the main connection, so it is last. */
  checks: ConformCheck[];
}

/**
 * Profiles are versioned so that scores stay comparable across toolrun releases (SPEC §16): a
 * check is added, removed or made stricter only in a new version; `toolrun@1` stays what it is.
 */
const PROFILES: ConformProfile[] = [
  {
    name: 'toolrun',
    version: 1,
    checks: [handshakeCheck, versionNegotiationCheck, initializedCheck, ...CONTENT_CHECKS, frameSchemaCheck, framingCheck, stdoutPurityCheck, shutdownCheck],
  },
  // @2 (issue 49): the extensions a server declares. extensions.apps runs only for a server that declares io.modelcontextprotocol/ui.
  {
    name: 'toolrun',
    version: 2,
    checks: [handshakeCheck, versionNegotiationCheck, initializedCheck, ...CONTENT_CHECKS, appsExtension, frameSchemaCheck, framingCheck, stdoutPurityCheck, shutdownCheck],
  },
];

export const DEFAULT_PROFILE = 'toolrun@1';

export function profileNames(): string[] {
  return PROFILES.map((profile) => `${profile.name}@${profile.version}`);
}

/** `NAME@VERSION` (or `NAME`, its latest version); undefined when there is none. */
export function findProfile(spelled: string): ConformProfile | undefined {
  const [name, version] = spelled.split('@');
  const matching = PROFILES.filter((profile) => profile.name === name && (version === undefined || String(profile.version) === version));
  return matching.sort((a, b) => b.version - a.version)[0];
}
