import type { CliContext } from '../../cli-support/cli-context.js';
import { ExitCode } from '../../errors.js';
import { verifySkill, type ReadBudget, type SkillCheck } from '../../extensions/skills/catalog.js';
import { skillPathOf } from '../../extensions/skills/entry-rules.js';
import type { Skill } from '../../extensions/skills/wire.js';
import type { ConnectFailure } from '../../mcp/connect/connect-failure.js';
import type { ServerConnection } from '../../mcp/server-connection.js';
import { describeFailures } from './connected-servers.js';

// A skill as skills list, get and read report it: read and verified (--verify), refused
// (--require-digests), its row in --json, its problems on stderr, and the exit code they make.

/** The options of `toolrun skills list|get|read` (src/commands/skills.ts). */
export interface SkillsOptions {
  server?: string;
  verify?: boolean;
  requireDigests?: boolean;
  maxSkills?: string;
  maxBytes?: string;
  output?: string;
}

/** A request's signal and the --timeout of the run. */
export const requestOptions = (cli: CliContext) => ({ signal: cli.signal, timeout: cli.globals.timeout });

export interface ListedSkill {
  server: string;
  skill: Skill;
  check?: SkillCheck;
  /** Why the skill fails without a read: --require-digests and "dynamic". */
  refused?: string;
}

/** A skill's judgement: read and verified with --verify; refused under --require-digests when "dynamic". */
export async function judge(cli: CliContext, connection: ServerConnection, skill: Skill, budget: ReadBudget, options: SkillsOptions): Promise<ListedSkill> {
  const row: ListedSkill = { server: connection.name, skill };
  if (options.requireDigests && skill.resources === 'dynamic') row.refused = 'publishes no digests (resources: "dynamic") and --require-digests was given';
  if (options.verify) row.check = await verifySkill(connection.client, skill, budget, requestOptions(cli));
  return row;
}

export function checkWord(row: ListedSkill): string {
  if (row.refused) return 'no digests';
  if (!row.check) return '';
  return { verified: 'verified', mismatch: 'MISMATCH', unverifiable: 'unverifiable', incomplete: 'not fully checked' }[row.check.verdict];
}

export function listedJson(row: ListedSkill): Record<string, unknown> {
  const { skill } = row;
  return {
    server: row.server,
    uri: skill.uri,
    path: skillPathOf(skill.uri),
    name: skill.frontmatter.name,
    description: skill.frontmatter.description,
    frontmatter: skill.frontmatter,
    resources: skill.resources,
    ...(row.refused ? { refused: row.refused } : {}),
    ...(row.check ? { verification: checkJson(row.check) } : {}),
  };
}

function checkJson(check: SkillCheck): Record<string, unknown> {
  return {
    verdict: check.verdict,
    files: check.files.map((file) => ({
      path: file.path,
      uri: file.uri,
      verdict: file.verdict,
      ...(file.size !== undefined ? { size: file.size } : {}),
      ...(file.message ? { message: file.message } : {}),
    })),
    ...(check.overLimits ? { over_limits: check.overLimits } : {}),
  };
}

/** Each problem of a skill, one line on stderr. */
export function reportProblems(cli: CliContext, row: ListedSkill): void {
  const where = `${row.server}:${skillPathOf(row.skill.uri)}`;
  if (row.refused) cli.terminal.warn(`${where} ${row.refused}`);
  if (!row.check) return;
  if (row.check.overLimits) cli.terminal.warn(`${where}: ${row.check.overLimits}`);
  for (const file of row.check.files) {
    if (file.verdict === 'verified') continue;
    if (file.verdict === 'unverifiable') cli.terminal.info(`${where}: ${file.path} read but unverifiable: the skill publishes no digests (resources: "dynamic")`);
    else if (file.verdict === 'unread') cli.terminal.warn(`${where}: ${file.path} not checked: ${file.message} (raise --max-bytes)`);
    else cli.terminal.warn(`${where}: ${file.path} FAILS verification (${file.verdict}): ${file.message}`);
  }
}

export function exitCode(rows: ListedSkill[], otherProblem: boolean, failures: ConnectFailure[], cli: CliContext): number {
  const failed = otherProblem || rows.some((row) => row.refused || (row.check && (row.check.verdict === 'mismatch' || row.check.verdict === 'incomplete')));
  if (failed) return ExitCode.FAILURE;
  if (failures.length > 0) {
    cli.terminal.warn(describeFailures(failures));
    return ExitCode.UNREACHABLE;
  }
  return ExitCode.OK;
}
