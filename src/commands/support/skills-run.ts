import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { ToolrunError, UsageError } from '../../errors.js';
import type { CliContext } from '../../cli-support/cli-context.js';
import { loadCliConfig } from '../../cli-support/load-cli-config.js';
import { assertServerExists } from '../../cli-support/assert-server-exists.js';
import { serverOnCommandLine } from '../../cli-support/server-on-command-line.js';
import { mcpRequestError } from '../../cli-support/mcp-request-error.js';
import { writeOutputFile } from '../../cli-support/write-output-file.js';
import type { ConnectFailure } from '../../mcp/connect/connect-failure.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { formatBytes } from '../../output/format-result.js';
import { formatTable } from '../../output/format-tool-list.js';
import { decodeSegment, makeFoldersUnder, safeSegment } from '../../files/make-folders-under.js';
import { describeFailures, shellServers } from './connected-servers.js';
import { openTools } from './open-tools.js';
import { checkWord, exitCode, judge, listedJson, reportProblems, requestOptions, type ListedSkill, type SkillsOptions } from './skill-judgement.js';

export type { SkillsOptions } from './skill-judgement.js';
import { findSkill, isSkillUri, SkillLookupError } from '../../extensions/skills/find-skill.js';
import { DEFAULT_BOUNDS, InvalidSkillError, listSkills, ReadBudget, verifySkill, type FileCheck, type InvalidEntry, type SkillBounds } from '../../extensions/skills/catalog.js';
import { fileKey, relativePathIn, skillPathOf, skillRootUri } from '../../extensions/skills/entry-rules.js';
import { skillsCapabilityOf, type Skill } from '../../extensions/skills/wire.js';

interface SkillServers {
  /** Connected servers that declare the Skills extension, in the order asked. */
  offering: ServerConnection[];
  connected: ServerConnection[];
  failures: ConnectFailure[];
}

/** The bounds of a run: --max-skills and --max-bytes over the defaults (256 skills, 64 MiB). */
export function boundsOf(options: SkillsOptions): SkillBounds {
  const bounds = { ...DEFAULT_BOUNDS };
  if (options.maxSkills !== undefined) {
    const value = Number(options.maxSkills);
    if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`--max-skills ${options.maxSkills}: not a whole number of skills above 0 (e.g. --max-skills 1000)`);
    bounds.maxSkills = value;
  }
  if (options.maxBytes !== undefined) {
    const value = parseByteCount(options.maxBytes);
    if (value === undefined) throw new UsageError(`--max-bytes ${options.maxBytes}: not a byte count (e.g. --max-bytes 200M, 1.5G, 65536)`);
    bounds.maxBytes = value;
  }
  return bounds;
}

/** `65536`, `200K`, `1.5M`, `2G` (binary units, an optional B or iB) → bytes; undefined when not one. */
function parseByteCount(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(text.trim());
  if (!match) return undefined;
  const value = Math.floor(Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase()));
  return value >= 1 && Number.isSafeInteger(value) ? value : undefined;
}

/** Connects the servers named (all configured by default, or the one after `--`) and says which declare the extension. */
async function connectSkillServers(cli: CliContext, names: string[], dashed: string[] | undefined): Promise<SkillServers> {
  const config = await loadCliConfig(cli);
  let wanted = names;
  if (dashed !== undefined) {
    if (dashed.length === 0) throw new UsageError('nothing after --: give the command of the server (toolrun skills list -- node server.js)');
    wanted = [serverOnCommandLine(config, dashed, true, cli.cwd)!];
  } else if (names.length === 1 && /^https?:\/\//i.test(names[0]!)) wanted = [serverOnCommandLine(config, names, false, cli.cwd)!];
  for (const name of wanted) assertServerExists(config, name);
  const { registry, connect } = await openTools(cli, { config, useSession: true });
  // Run from `toolrun shell`: the shell's servers (held), never the other configured ones.
  if (wanted.length === 0) wanted = shellServers(cli.env) ?? Object.keys(config.servers);
  const failures = await connect(wanted, { registerTools: false });
  const connected = wanted.flatMap((name) => {
    const status = registry.servers.get(name);
    return status?.status === 'connected' ? [status.connection] : [];
  });
  return { offering: connected.filter((connection) => skillsCapabilityOf(connection.capabilities as Record<string, unknown>) !== undefined), connected, failures };
}

/** `SERVER:SKILL` → its parts; a bare SKILL (or a URI: `skill://…` is no server) takes --server. */
export function splitSkillAddress(address: string, serverOption: string | undefined): { server?: string; skill: string } {
  const colon = address.indexOf(':');
  const isUri = colon > 0 && address.slice(colon + 1).startsWith('//');
  if (colon <= 0 || isUri) return { skill: address, ...(serverOption ? { server: serverOption } : {}) };
  const server = address.slice(0, colon);
  if (serverOption !== undefined && serverOption !== server) throw new UsageError(`'${address}' names MCP server '${server}' but --server names '${serverOption}'; give the server once`);
  return { server, skill: address.slice(colon + 1) };
}

export async function runSkillsList(cli: CliContext, names: string[], options: SkillsOptions, dashed: boolean): Promise<number> {
  const bounds = boundsOf(options);
  const servers = await connectSkillServers(cli, dashed ? [] : names, dashed ? names : undefined);
  const rows: ListedSkill[] = [];
  const invalid: Array<InvalidEntry & { server: string }> = [];
  const notes: string[] = [];
  const budget = new ReadBudget(bounds.maxBytes);
  let left = bounds.maxSkills;
  for (const connection of servers.offering) {
    if (left <= 0) {
      notes.push(`${connection.name}: not listed: the run's --max-skills bound (${bounds.maxSkills}) was reached`);
      continue;
    }
    const listing = await listSkills(connection.client, { ...bounds, maxSkills: left }, requestOptions(cli)).catch((error: unknown) => {
      throw mcpRequestError(connection, 'skills/list', error);
    });
    left -= listing.skills.length + listing.invalid.length;
    if (listing.truncated) notes.push(`${connection.name}: ${listing.truncated}`);
    for (const entry of listing.invalid) invalid.push({ server: connection.name, ...entry });
    for (const skill of listing.skills) rows.push(await judge(cli, connection, skill, budget, options));
  }
  if (cli.globals.json) {
    await cli.terminal.resultJson(
      { skills: rows.map(listedJson), invalid, ...(notes.length ? { notes } : {}), servers: servers.offering.map((connection) => connection.name) },
      { verbatimKeys: ['frontmatter', 'resources', 'uri', 'description'] },
    );
  } else if (rows.length === 0 && invalid.length === 0) cli.terminal.info(describeNoSkills(servers));
  else {
    const headers = ['SERVER', 'SKILL', 'FILES', 'SIZE', 'DESCRIPTION', ...(options.verify || options.requireDigests ? ['CHECK'] : [])];
    const cells = rows.map((row) => {
      const { resources } = row.skill;
      const files = resources === 'dynamic' ? 'dynamic' : String(resources.length);
      const size = resources === 'dynamic' ? '' : formatBytes(resources.reduce((sum, file) => sum + file.size, 0));
      return [row.server, skillPathOf(row.skill.uri), files, size, row.skill.frontmatter.description, ...(options.verify || options.requireDigests ? [checkWord(row)] : [])];
    });
    if (rows.length > 0) await cli.terminal.result(formatTable(headers, cells, cli.terminal.stdout.isTTY ? cli.terminal.stdout.columns : undefined));
    cli.terminal.info(`${rows.length} skill${rows.length === 1 ? '' : 's'} from ${servers.offering.length} server${servers.offering.length === 1 ? '' : 's'}`);
  }
  for (const entry of invalid) cli.terminal.warn(`${entry.server}: skills/list entry #${entry.index}${entry.uri ? ` (${entry.uri})` : ''} is invalid and was left out: ${entry.reason}`);
  for (const row of rows) reportProblems(cli, row);
  for (const note of notes) cli.terminal.warn(note);
  return exitCode(rows, invalid.length > 0 || notes.some((note) => note.includes('--max-skills')), servers.failures, cli);
}

function describeNoSkills(servers: SkillServers): string {
  if (servers.connected.length === 0) return 'no skills: no MCP server connected';
  if (servers.offering.length === 0)
    return `no skills: none of the connected servers (${servers.connected.map((connection) => connection.name).join(', ')}) declares the Skills extension (io.modelcontextprotocol/skills)`;
  return `no skills: ${servers.offering.map((connection) => connection.name).join(', ')} declare${servers.offering.length === 1 ? 's' : ''} the Skills extension but list${servers.offering.length === 1 ? 's' : ''} none`;
}

/** The one server a get/read asks: the one named, else the only one that declares the extension. */
async function connectOne(cli: CliContext, address: string, dashed: string[] | undefined, serverOption: string | undefined): Promise<{ connection: ServerConnection; skillRef: string }> {
  const { server, skill } = splitSkillAddress(address, serverOption);
  if (dashed !== undefined && server) throw new UsageError(`'${address}' names MCP server '${server}' and a command follows --; give one (the skill alone before --)`);
  if (!skill) throw new UsageError(`'${address}': no skill named; give SERVER:SKILL (toolrun skills list shows them)`);
  const servers = await connectSkillServers(cli, server ? [server] : [], dashed);
  if (servers.failures.length > 0 && servers.connected.length === 0) throw new ToolrunError('unreachable', `cannot ask for skill '${skill}': ${describeFailures(servers.failures)}`);
  const named = server ?? (dashed !== undefined ? servers.connected[0]?.name : undefined);
  if (named !== undefined) {
    const connection = servers.connected.find((candidate) => candidate.name === named);
    if (!connection) throw new ToolrunError('unreachable', `cannot ask for skill '${skill}': ${describeFailures(servers.failures)}`);
    if (!servers.offering.includes(connection)) throw new UsageError(`MCP server '${named}' does not declare the Skills extension (io.modelcontextprotocol/skills): it serves no skills`);
    return { connection, skillRef: skill };
  }
  if (servers.offering.length === 1) return { connection: servers.offering[0]!, skillRef: skill };
  if (servers.offering.length === 0) throw new UsageError(`no connected MCP server declares the Skills extension; check them with: toolrun mcp list --check`);
  throw new UsageError(`several MCP servers serve skills (${servers.offering.map((connection) => connection.name).join(', ')}): name one, as SERVER:${skill}`);
}

/** The entry of the skill `ref` names on `connection` (findSkill), its failures as toolrun's errors. */
async function resolveSkill(cli: CliContext, connection: ServerConnection, ref: string, bounds: SkillBounds): Promise<Skill> {
  try {
    return await findSkill(connection.client, ref, bounds, requestOptions(cli));
  } catch (error) {
    if (error instanceof SkillLookupError) {
      const message = `MCP server '${connection.name}': ${error.message}`;
      if (error.kind === 'ambiguous') throw new UsageError(`${message} (${connection.name}:${error.paths[0]})`);
      if (error.kind === 'missing') throw new ToolrunError('not_found', `${message}; see them with: toolrun skills list ${connection.name}`);
      throw new ToolrunError('tool_error', message);
    }
    if (error instanceof InvalidSkillError) throw new ToolrunError('tool_error', `MCP server '${connection.name}': ${error.message}`);
    throw mcpRequestError(connection, isSkillUri(ref) ? 'skills/get' : 'skills/list', error, ref);
  }
}

export async function runSkillsGet(cli: CliContext, address: string, dashed: string[] | undefined, options: SkillsOptions): Promise<number> {
  const bounds = boundsOf(options);
  const { connection, skillRef } = await connectOne(cli, address, dashed, options.server);
  const skill = await resolveSkill(cli, connection, skillRef, bounds);
  const row = await judge(cli, connection, skill, new ReadBudget(bounds.maxBytes), options);
  if (cli.globals.json) await cli.terminal.resultJson(listedJson(row), { verbatimKeys: ['frontmatter', 'resources', 'uri', 'description'] });
  else {
    const lines = [`${skill.uri} · mcp:${connection.name}`, '', stringify(skill.frontmatter).trimEnd(), ''];
    if (skill.resources === 'dynamic') lines.push('files: dynamic (generated: the server publishes no digests, nothing can be verified)');
    else {
      const checks = new Map((row.check?.files ?? []).map((file) => [fileKey(file.uri), file]));
      const headers = ['FILE', 'SIZE', 'DIGEST', ...(row.check ? ['CHECK'] : [])];
      const cells = skill.resources.map((file) => [pathOf(skill, file.uri), formatBytes(file.size), file.digest, ...(row.check ? [fileCheckWord(checks.get(fileKey(file.uri)))] : [])]);
      lines.push(formatTable(headers, cells, undefined));
    }
    await cli.terminal.result(lines.join('\n'));
  }
  reportProblems(cli, row);
  return exitCode([row], false, [], cli);
}

function fileCheckWord(file: FileCheck | undefined): string {
  if (!file) return '';
  return {
    verified: 'verified',
    size: 'SIZE MISMATCH',
    digest: 'DIGEST MISMATCH',
    frontmatter: 'FRONTMATTER DIFFERS',
    unverifiable: 'unverifiable',
    unread: 'not read (bounds)',
    error: 'READ FAILED',
  }[file.verdict];
}

const pathOf = (skill: Skill, uri: string) => (fileKey(uri) === fileKey(skill.uri) ? 'SKILL.md' : (relativePathIn(skillRootUri(skill.uri)!, uri)?.join('/') ?? uri));

/**
 * `skills read`: the file (SKILL.md by default) verified, then printed; with -o DIR every file (or
 * FILE) verified and written under DIR/SERVER/SKILL-PATH/ (skills.mdx#skill-uris: a path where skill
 * content lands MUST encode the server as well as the URI). A file that fails verification is never
 * printed nor written (skills.mdx#verification-on-read: the host MUST NOT use unverified content).
 */
export async function runSkillsRead(cli: CliContext, address: string, file: string | undefined, dashed: string[] | undefined, options: SkillsOptions): Promise<number> {
  const bounds = boundsOf(options);
  const { connection, skillRef } = await connectOne(cli, address, dashed, options.server);
  const skill = await resolveSkill(cli, connection, skillRef, bounds);
  const row: ListedSkill = { server: connection.name, skill };
  if (options.requireDigests && skill.resources === 'dynamic') row.refused = 'publishes no digests (resources: "dynamic") and --require-digests was given';
  const root = skillRootUri(skill.uri)!;
  let only = skill.resources === 'dynamic' ? undefined : file === undefined && options.output ? skill.resources : undefined;
  if (file !== undefined || !options.output) {
    const wanted = file ?? 'SKILL.md';
    const uri = /^[a-z][\d+.a-z-]*:\/\//i.test(wanted) ? wanted : `${root}/${wanted.split('/').map(encodeURIComponent).join('/')}`;
    if (skill.resources === 'dynamic') {
      if (fileKey(uri) !== fileKey(skill.uri)) throw new UsageError(`'${wanted}': skill ${skillPathOf(skill.uri)} is "dynamic" (no file list, no digests); only its SKILL.md can be read here`);
    } else {
      // skills.mdx#the-acting-window-and-the-held-entry: a file not in the entry is a verification failure; it is not asked for.
      const listed = skill.resources.find((resource) => fileKey(resource.uri) === fileKey(uri));
      if (!listed)
        throw new ToolrunError(
          'tool_error',
          `'${wanted}' is not a file of skill ${skillPathOf(skill.uri)} (its entry lists ${skill.resources.map((resource) => pathOf(skill, resource.uri)).join(', ')}); an unlisted file is not read`,
        );
      only = [listed];
    }
  }
  if (!row.refused)
    row.check = await verifySkill(connection.client, skill, new ReadBudget(bounds.maxBytes), { ...requestOptions(cli), ...(only ? { only } : {}), keepBytes: true, manifestFirst: true });
  const files = row.check?.files ?? [];
  // What was asked for (SKILL.md, read first to load the skill, is shown only when it is one of them).
  const asked = (checked: FileCheck) => !only || only.some((resource) => fileKey(resource.uri) === fileKey(checked.uri));
  const usable = files.filter((checked) => (checked.verdict === 'verified' || checked.verdict === 'unverifiable') && checked.bytes && asked(checked));
  if (cli.globals.json && !options.output) {
    await cli.terminal.resultJson(
      {
        server: connection.name,
        uri: skill.uri,
        files: files.map((checked) => ({
          path: checked.path,
          uri: checked.uri,
          verdict: checked.verdict,
          ...(checked.message ? { message: checked.message } : {}),
          ...(usable.includes(checked) ? (checked.binary ? { blob: checked.bytes!.toString('base64') } : { text: checked.bytes!.toString('utf8') }) : {}),
        })),
        ...(row.refused ? { refused: row.refused } : {}),
      },
      { verbatimKeys: ['text', 'blob', 'uri'] },
    );
  } else if (options.output) {
    const root = resolve(cli.cwd, options.output);
    const under = [safeSegment(connection.name), ...skillPathOf(skill.uri).split('/').map(decodeSegment).map(safeSegment)];
    const base = join(root, ...under);
    const written: Array<{ path: string; verdict: string }> = [];
    for (const checked of usable) {
      const segments = [...under, ...checked.path.split('/').map(safeSegment)];
      const path = join(root, ...segments);
      await makeFoldersUnder(root, segments.slice(0, -1));
      await writeOutputFile(path, checked.bytes!);
      written.push({ path, verdict: checked.verdict });
    }
    if (cli.globals.json)
      await cli.terminal.resultJson({
        server: connection.name,
        uri: skill.uri,
        written: written.map((entry) => entry.path),
        files: files.map((checked) => ({ path: checked.path, verdict: checked.verdict })),
      });
    else if (written.length > 0) await cli.terminal.result(written.map((entry) => entry.path).join('\n'));
    cli.terminal.info(`${written.length} of ${files.length} file${files.length === 1 ? '' : 's'} of ${connection.name}:${skillPathOf(skill.uri)} written under ${base}`);
  } else {
    const [checked] = usable;
    if (checked) {
      if (checked.binary && cli.terminal.stdout.isTTY)
        throw new UsageError(`'${checked.path}' is binary (${checked.mimeType ?? 'no mime type'}, ${formatBytes(checked.bytes!.length)}); write it to a folder with -o DIR, or pipe it`);
      if (checked.binary) await new Promise<void>((done, fail) => cli.terminal.stdout.write(checked.bytes!, (error) => (error ? fail(error) : done())));
      else await cli.terminal.result(checked.bytes!.toString('utf8'), { verbatim: true });
    }
  }
  reportProblems(cli, row);
  return exitCode([row], false, [], cli);
}
