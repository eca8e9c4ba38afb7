/**
 * Everything a command needs from the engine, behind one dynamic import: `toolrun --help` and
 * usage errors never load it, and a command that does loads it as one chunk, not a dozen.
 */
export { loadConfig, readConfigFile } from './config/load-config.js';
export { findConfigPath } from './config/find-config-path.js';
export { checkConfig } from './config/check-config.js';
export { createRegistry } from './registry/create-registry.js';
export { ToolExecutor } from './executor/tool-executor.js';
export { formatDefinition } from './registry/definition-formats.js';
