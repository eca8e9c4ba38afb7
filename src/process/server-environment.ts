import type { StdioServerSpec } from '../config/resolve-server.js';
import { hostEnvironment } from '../hosts/host-launch.js';

/**
 * The whole environment a stdio server starts with. As its host starts it (`--host`: the host's
 * variables and PATH, SPEC §13), or toolrun's way: the caller's whole environment plus the entry's
 * own, so HTTPS_PROXY, NODE_EXTRA_CA_CERTS and friends reach the server (the SDK passes only six).
 */
export function serverEnvironment(spec: Pick<StdioServerSpec, 'env' | 'launch'>, callerEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return spec.launch ? hostEnvironment(spec.launch, callerEnv, spec.env) : { ...callerEnv, ...spec.env };
}
