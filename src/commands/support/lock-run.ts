import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { CliContext } from '../../cli-support/cli-context.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { assertServerExists } from '../../cli-support/assert-server-exists.js';
import { resolveWritablePath } from '../../cli-support/output-file-path.js';
import { writeOutputFile } from '../../cli-support/write-output-file.js';
import { mcpRequestError } from '../../cli-support/mcp-request-error.js';
import type { ToolrunConfig } from '../../config/config-types.js';
import { ExitCode, ToolrunError, UsageError } from '../../errors.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { buildLock, buildLockedServer, formatLock } from '../../lock/build-lock.js';
import { checkLock, type LockCheck } from '../../lock/check-lock.js';
import { launchIdentity, unpinnedLaunch } from '../../lock/launch-identity.js';
import { trustFindings } from '../../lock/lock-findings.js';
import { npxResolvedVersion } from '../../lock/npx-resolved.js';
import { dockerResolvedDigest } from '../../lock/docker-resolved.js';
import type { LockedServer, LockFile, ServerApi } from '../../lock/lock-types.js';
import { readLockFile } from '../../lock/read-lock.js';
import { compareText } from '../../snapshot/build-snapshot.js';
import { describeFailures } from './connected-servers.js';
import { openTools } from './open-tools.js';

export interface LockOptions {
  file?: string;
  check?: boolean;
  update?: boolean;
  junit?: string;
  sarif?: string;
}

export const LOCK_FILE = 'toolrun.lock';

/** `toolrun lock [SERVER…]`, `--update SERVER…` and `--check` (SPEC §24). */
export async function runLock(cli: CliContext, words: string[], options: LockOptions): Promise<number> {
  if (options.check && options.update) throw new UsageError('--check compares and --update writes: give one of them');
  if (!options.check && (options.junit !== undefined || options.sarif !== undefined)) throw new UsageError('--junit and --sarif report a check: add --check');
  if (options.update && words.length === 0) throw new UsageError('--update re-pins the servers you name: toolrun lock --update SERVER…');
  const file = resolve(cli.cwd, options.file ?? LOCK_FILE);
  const shown = options.file ?? LOCK_FILE;
  const paths = {
    ...(options.junit === undefined ? {} : { junit: resolveWritablePath(cli.cwd, '--junit', options.junit) }),
    ...(options.sarif === undefined ? {} : { sarif: resolveWritablePath(cli.cwd, '--sarif', options.sarif) }),
  };
  const target = options.check ? file : resolveWritablePath(cli.cwd, '--file', shown);
  const existing = options.check || options.update ? readLockFile(file, shown) : undefined;
  const config = await loadCliConfig(cli);
  return options.check ? checkCommand(cli, config, words, existing!, { file, shown, ...paths }) : writeCommand(cli, config, words, existing, target, shown);
}

/** The servers a run is about: the ones named (each must be configured), else every configured one the host would start. */
function serversOf(cli: CliContext, config: ToolrunConfig, words: string[], skipped: 'pinned' | 'checked'): string[] {
  if (words.length > 0) {
    for (const name of words) assertServerExists(config, name);
    return [...new Set(words)];
  }
  const names: string[] = [];
  for (const [name, entry] of Object.entries(config.servers)) {
    if (entry.refused) cli.terminal.warn(`${name} not ${skipped}: ${entry.refused.reason}`);
    else names.push(name);
  }
  return names;
}

async function writeCommand(cli: CliContext, config: ToolrunConfig, words: string[], existing: LockFile | undefined, path: string, shown: string): Promise<number> {
  const names = serversOf(cli, config, words, 'pinned');
  if (names.length === 0) throw new UsageError(`no MCP servers to pin${config.path ? ` in ${config.path}` : ''}: configure one, or name a host's with --host NAME`);
  const apis = await collectApis(cli, config, names);
  warnUnpinnedLaunches(cli, apis);
  // --update keeps every other server's entry as it was, and judges shadowing over the whole set.
  const kept = Object.fromEntries(Object.entries(existing?.servers ?? {}).filter(([name]) => !names.includes(name)));
  const entries = await lockedEntries(apis, kept);
  const lock = buildLock({ ...kept, ...entries });
  const { replaced } = await writeOutputFile(path, Buffer.from(formatLock(lock)));
  const counts = Object.fromEntries(
    names.map((name) => {
      const entry = lock.servers[name]!;
      return [name, { tools: entry.tools.length, prompts: entry.prompts.length, resourceTemplates: entry.resourceTemplates.length, skills: entry.skills.length, findings: entry.findings.length }];
    }),
  );
  const verb = existing ? 're-pinned' : replaced ? 'rewrote' : 'wrote';
  const tools = Object.values(counts).reduce((sum, count) => sum + count.tools, 0);
  cli.terminal.info(
    `${verb} ${shown}: ${names.length} server${names.length === 1 ? '' : 's'}, ${tools} tool${tools === 1 ? '' : 's'}${existing ? ` (${Object.keys(kept).length} other server${Object.keys(kept).length === 1 ? '' : 's'} kept as pinned)` : ''}`,
  );
  for (const [name, entry] of Object.entries(entries))
    for (const finding of entry.findings)
      cli.terminal.warn(`${name}${finding.tool === undefined ? '' : `/${finding.tool}`}: ${finding.rule} ${finding.path} — ${finding.message} (recorded in the lock)`);
  if (cli.globals.json) await cli.terminal.resultJson({ file: path, servers: counts });
  return ExitCode.OK;
}

/** Each server's entry, with the trust findings judged over these servers and the kept ones together. */
async function lockedEntries(apis: ServerApi[], kept: Record<string, LockedServer>): Promise<Record<string, LockedServer>> {
  const keptTools = Object.entries(kept).map(([server, entry]) => ({ server, tools: entry.tools.map((item) => item.definition) }));
  const all = [...keptTools, ...apis.map((api) => ({ server: api.name, tools: api.snapshot.tools }))].sort((a, b) => compareText(a.server, b.server));
  const findings = await trustFindings(all);
  return Object.fromEntries(apis.map((api) => [api.name, buildLockedServer(api, findings.get(api.name) ?? [])]));
}

function warnUnpinnedLaunches(cli: CliContext, apis: ServerApi[]): void {
  for (const api of apis) {
    const why = unpinnedLaunch(api);
    if (why) cli.terminal.warn(`${api.name}: unpinned launch: ${why}`);
  }
}

interface CheckPaths {
  file: string;
  shown: string;
  junit?: string;
  sarif?: string;
}

async function checkCommand(cli: CliContext, config: ToolrunConfig, words: string[], lock: LockFile, paths: CheckPaths): Promise<number> {
  const configured = serversOf(cli, config, words, 'checked');
  const unpinned = configured.filter((name) => !Object.hasOwn(lock.servers, name));
  const checked = configured.filter((name) => Object.hasOwn(lock.servers, name));
  // Without names, a pinned server no longer configured is a change; with names, only those are checked.
  const pinnedNames = words.length > 0 ? checked : [...new Set([...checked, ...Object.keys(lock.servers).filter((name) => !config.servers[name]?.refused)])];
  const apis = checked.length > 0 ? await collectApis(cli, config, checked) : [];
  warnUnpinnedLaunches(cli, apis);
  const others = Object.fromEntries(Object.entries(lock.servers).filter(([name]) => !checked.includes(name) && config.servers[name] !== undefined));
  const current = await lockedEntries(apis, others);
  const pinned = Object.fromEntries(pinnedNames.map((name) => [name, lock.servers[name]!]));
  const check = checkLock(pinned, current);
  for (const warning of check.warnings) cli.terminal.warn(warning);
  for (const name of unpinned) cli.terminal.error(`✖ ${name} is not pinned in ${paths.shown}: pin it with: toolrun lock --update ${name}`);
  await writeCheckOutputs(cli, check, unpinned, paths);
  if (cli.globals.json)
    await cli.terminal.resultJson({ ok: check.changes.length === 0 && unpinned.length === 0, changes: check.changes, unpinned, warnings: check.warnings }, { verbatimKeys: ['changes'] });
  else {
    const { formatLockCheck } = await import('../../output/format-lock-check.js');
    await cli.terminal.result(formatLockCheck(check, { before: paths.shown, after: `${checked.length} server${checked.length === 1 ? '' : 's'} now` }, cli.terminal.outStyle));
  }
  if (unpinned.length > 0) return ExitCode.USAGE;
  return check.changes.length > 0 ? ExitCode.FAILURE : ExitCode.OK;
}

async function writeCheckOutputs(cli: CliContext, check: LockCheck, unpinned: string[], paths: CheckPaths): Promise<void> {
  const text = existsSync(paths.file) ? readFileSync(paths.file, 'utf8') : '';
  const uri = (relative(cli.cwd, paths.file) || paths.shown).split('\\').join('/');
  const lineOf = (server: string) => {
    const index = text.indexOf(`    ${JSON.stringify(server)}: {`);
    return index < 0 ? 1 : text.slice(0, index).split('\n').length;
  };
  const { lockCheckJunit, lockCheckSarif, lockCheckAnnotations } = await import('../../output/format-lock-reports.js');
  const { readVersion } = await import('../../version.js');
  if (paths.junit) await writeOutputFile(paths.junit, Buffer.from(lockCheckJunit(check, unpinned, paths.shown)));
  if (paths.sarif) await writeOutputFile(paths.sarif, Buffer.from(lockCheckSarif(check, unpinned, { version: readVersion(), uri, lineOf })));
  if (cli.env.GITHUB_ACTIONS === 'true') for (const line of lockCheckAnnotations(check, unpinned, { uri, lineOf })) cli.terminal.workflowCommand(line);
}

/**
 * Connects these servers together (one that does not connect is exit 4 after its diagnosis, as
 * `mcp snapshot`) and takes each one's API with mcp snapshot's collection (src/snapshot/take-snapshot.ts).
 */
async function collectApis(cli: CliContext, config: ToolrunConfig, names: string[]): Promise<ServerApi[]> {
  const { registry, connect } = await openTools(cli, { config, useSession: true, onToolReplaced: () => {} });
  const failures = await connect(names, { registerTools: false });
  if (failures.length > 0) throw new ToolrunError('unreachable', `cannot pin or check: ${describeFailures(failures).replace(/; (its|their) items are missing$/, '')}`);
  const { takeSnapshot, ListFailedError } = await import('../../snapshot/take-snapshot.js');
  return Promise.all(
    names.map(async (name) => {
      const status = registry.servers.get(name);
      const connection = (status?.status === 'connected' ? status.connection : undefined) as ServerConnection;
      const snapshot = await takeSnapshot(connection, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
        throw error instanceof ListFailedError ? mcpRequestError(connection, error.method, error.cause) : error;
      });
      const info = connection.serverInfo;
      const entry = config.servers[name]!;
      const identity = launchIdentity(entry);
      if (identity.package?.runner === 'npx' && entry.transport === 'stdio') {
        const resolved = npxResolvedVersion(identity.package.spec, identity.package.name, { ...cli.env, ...withoutVariables(entry.env) });
        if (resolved) identity.package.resolved = resolved;
      }
      if (identity.image && entry.transport === 'stdio') {
        const resolved = await dockerResolvedDigest(entry.command, identity.image.ref, { ...cli.env, ...withoutVariables(entry.env) });
        if (resolved) identity.image.resolved = resolved;
      }
      return {
        name,
        ...identity,
        serverInfo: { name: info?.name ?? name, ...(typeof info?.version === 'string' ? { version: info.version } : {}) },
        snapshot,
      };
    }),
  );
}

/** An entry's env values that hold no `${VAR}` (those are expanded only when the server starts). */
function withoutVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => !value.includes('${')));
}
