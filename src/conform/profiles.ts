import type { ConformCheck } from './check-types.js';
import { handshakeCheck, initializedCheck, versionNegotiationCheck } from './checks/lifecycle-checks.js';
import { CONTENT_CHECKS } from './checks/content-checks.js';
import { appsExtension } from './checks/apps-extension.js';
import { frameSchemaCheck } from './checks/frame-schema-check.js';
import { skillsChecksFor } from './checks/skills-checks.js';
import { framingCheck, shutdownCheck, stdoutPurityCheck } from './checks/transport-checks.js';

export interface ConformProfile {
  name: string;
  version: number;
  /** In the order they run; the shutdown check ends the main connection, so it is last. */
  checks: ConformCheck[];
  /** The checks of the extensions a server declares (its capabilities), run before `schema.frames`. */
  declaredExtensionChecks?: (capabilities: Record<string, unknown>) => readonly ConformCheck[];
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
  // @2 (issue 49): @1 and the extensions a server declares (SPEC §23). extensions.apps is skipped for
  // a server that does not declare io.modelcontextprotocol/ui; the Skills checks are there only for one
  // that declares io.modelcontextprotocol/skills.
  {
    name: 'toolrun',
    version: 2,
    checks: [handshakeCheck, versionNegotiationCheck, initializedCheck, ...CONTENT_CHECKS, appsExtension, frameSchemaCheck, framingCheck, stdoutPurityCheck, shutdownCheck],
    declaredExtensionChecks: skillsChecksFor,
  },
];

/** The latest: `mcp conform` checks all of MCP it knows; `--profile toolrun@1` keeps a score comparable with earlier releases. */
export const DEFAULT_PROFILE = 'toolrun@2';

export function profileNames(): string[] {
  return PROFILES.map((profile) => `${profile.name}@${profile.version}`);
}

/** `NAME@VERSION` (or `NAME`, its latest version); undefined when there is none. */
export function findProfile(spelled: string): ConformProfile | undefined {
  const [name, version] = spelled.split('@');
  const matching = PROFILES.filter((profile) => profile.name === name && (version === undefined || String(profile.version) === version));
  return matching.sort((a, b) => b.version - a.version)[0];
}
