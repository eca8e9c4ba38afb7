/**
 * node:crypto, loaded on first use. An ESM import of it is linked before any command runs and costs
 * ~6 ms of every start (it loads the whole crypto binding), yet a start with no config file, or a
 * valid-config cache hit, never hashes anything: only the commands that do pay for it.
 */
let crypto: typeof import('node:crypto') | undefined;
export function lazyCrypto(): typeof import('node:crypto') {
  crypto ??= process.getBuiltinModule('node:crypto');
  return crypto;
}
