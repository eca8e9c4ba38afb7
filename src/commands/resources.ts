import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ExitCode, ToolrunError, UsageError } from '../errors.js';
import { listItems } from '../mcp/list-items.js';
import type { ServerConnection } from '../mcp/server-connection.js';
import { formatBytes } from '../output/format-result.js';
import { formatTable } from '../output/format-tool-list.js';
import type { CommandRunner } from '../cli-support/cli-context.js';
import { connectServersFor, describeEmptyListing, describeFailures, exitAfterListing } from './support/connected-servers.js';
import { mcpRequestError } from '../cli-support/mcp-request-error.js';
import { registerResourcesWatchCommand } from './resources-watch.js';
import { writeOutputFile } from '../cli-support/write-output-file.js';

interface ListOptions {
  server?: string[];
  templates?: boolean;
}

interface ReadOptions {
  server?: string;
  output?: string;
}

export function registerResourcesCommand(program: Command, run: CommandRunner): void {
  const resources = program
    .command('resources')
    .description("list MCP servers' resources (or resource templates), read one")
    .addHelpText(
      'after',
      `
Examples:
  $ toolrun resources                                  # every server's resources
  $ toolrun resources --server everything --templates
  $ toolrun resources read 'demo://resource/static/document/architecture.md'
  $ toolrun resources read file:///tmp/logo.png -o logo.png
  $ toolrun --json resources read test://greeting --server v2
  $ toolrun resources watch note://counter --server notes     # re-printed on each update, Ctrl-C ends`,
    );
  resources
    .command('list', { isDefault: true })
    .description('resources (uri, name, mime type, size) of every server, or resource templates')
    .option('--server <name...>', 'only these MCP servers (starts only them)')
    .option('--templates', 'resource templates (URI patterns) instead of resources')
    .action((options: ListOptions) =>
      run(async (cli) => {
        const servers = await connectServersFor(cli, options.server, 'resources');
        const { offering, failures } = servers;
        const kind = options.templates ? 'resourceTemplates' : 'resources';
        const rows: Array<Record<string, unknown>> = [];
        for (const connection of offering) {
          const items = await listItems(connection.client, kind, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
            throw mcpRequestError(connection, `${kind === 'resources' ? 'resources/list' : 'resources/templates/list'}`, error);
          });
          for (const item of items) rows.push({ server: connection.name, ...item });
        }
        if (cli.globals.json) await cli.terminal.resultJson({ [kind]: rows });
        else if (rows.length === 0) cli.terminal.info(describeEmptyListing(options.templates ? 'resource templates' : 'resources', 'resources', servers));
        else {
          const headers = options.templates ? ['SERVER', 'URI TEMPLATE', 'NAME', 'MIME TYPE', 'DESCRIPTION'] : ['SERVER', 'URI', 'NAME', 'MIME TYPE', 'SIZE'];
          const cells = rows.map((row) =>
            options.templates
              ? [row.server, row.uriTemplate, row.name, row.mimeType ?? '', row.description ?? '']
              : [row.server, row.uri, row.name, row.mimeType ?? '', typeof row.size === 'number' ? formatBytes(row.size) : ''],
          );
          await cli.terminal.result(
            formatTable(
              headers,
              cells.map((cell) => cell.map(String)),
              cli.terminal.stdout.isTTY ? cli.terminal.stdout.columns : undefined,
            ),
          );
          cli.terminal.info(`${rows.length} resource${options.templates ? ' template' : ''}${rows.length === 1 ? '' : 's'} from ${offering.length} server${offering.length === 1 ? '' : 's'}`);
        }
        return exitAfterListing(cli, failures);
      }),
    );
  resources
    .command('read')
    .description('read a resource: text to stdout, binary to -o FILE (or a pipe)')
    .argument('<uri>', 'the resource URI (as resources list shows it, or filled from a template)')
    .option('--server <name>', 'the MCP server to ask (needed when several offer resources)')
    .option('-o, --output <file>', 'write the contents to FILE instead of stdout')
    .action((uri: string, options: ReadOptions) =>
      run(async (cli) => {
        const { offering, failures } = await connectServersFor(cli, options.server ? [options.server] : undefined, 'resources');
        const connection = await pickServer(offering, uri, options.server, cli.signal);
        if (!connection) {
          if (failures.length > 0) throw new ToolrunError('unreachable', `cannot read '${uri}': ${describeFailures(failures)}`);
          throw new UsageError(options.server ? `MCP server '${options.server}' offers no resources` : 'no connected MCP server offers resources; check them with: toolrun mcp list --check');
        }
        const result = await connection.client.request('resources/read', { uri }, { signal: cli.signal, timeout: cli.globals.timeout }).catch((error: unknown) => {
          throw mcpRequestError(connection, 'resources/read', error, uri);
        });
        const contents = Array.isArray(result.contents) ? (result.contents as Array<{ uri?: string; mimeType?: string; text?: string; blob?: string }>) : [];
        if (cli.globals.json) {
          await cli.terminal.resultJson({ server: connection.name, uri, contents }, { verbatimKeys: ['contents'] });
          return ExitCode.OK;
        }
        const binary = contents.some((item) => typeof item.blob === 'string');
        const bytes = Buffer.concat(contents.map((item) => (typeof item.blob === 'string' ? Buffer.from(item.blob, 'base64') : Buffer.from(item.text ?? '', 'utf8'))));
        if (options.output) {
          const path = resolve(cli.cwd, options.output);
          const { replaced } = await writeOutputFile(path, bytes);
          cli.terminal.info(`✔ ${uri} · mcp:${connection.name} · ${formatBytes(bytes.length)} written to ${path}${replaced ? ' (replaced the file that was there)' : ''}`);
          return ExitCode.OK;
        }
        if (binary && cli.terminal.stdout.isTTY) {
          throw new UsageError(`'${uri}' is binary (${contents.find((item) => item.blob)?.mimeType ?? 'no mime type'}, ${formatBytes(bytes.length)}); write it to a file with -o FILE, or pipe it`);
        }
        if (binary) await new Promise<void>((done, fail) => cli.terminal.stdout.write(bytes, (error) => (error ? fail(error) : done())));
        else await cli.terminal.result(contents.map((item) => item.text ?? '').join('\n'), { verbatim: true });
        return ExitCode.OK;
      }),
    );
  registerResourcesWatchCommand(resources, run);
}

/**
 * The server to read URI from: the one named, else the one that lists it, else the one whose
 * templates match it, else the only server that offers resources.
 */
async function pickServer(offering: ServerConnection[], uri: string, named: string | undefined, signal: AbortSignal): Promise<ServerConnection | undefined> {
  if (named || offering.length <= 1) return offering[0];
  const listing: ServerConnection[] = [];
  const templated: ServerConnection[] = [];
  for (const connection of offering) {
    const [resources, templates] = await Promise.all([
      listItems(connection.client, 'resources', { signal }).catch(() => []),
      listItems(connection.client, 'resourceTemplates', { signal }).catch(() => []),
    ]);
    if (resources.some((resource) => resource.uri === uri)) listing.push(connection);
    else if (templates.some((template) => templateMatches(template.uriTemplate, uri))) templated.push(connection);
  }
  const candidates = listing.length > 0 ? listing : templated;
  if (candidates.length === 1) return candidates[0];
  const names = (candidates.length > 1 ? candidates : offering).map((connection) => connection.name).join(', ');
  throw new UsageError(`${candidates.length > 1 ? `several MCP servers offer '${uri}'` : `no MCP server lists '${uri}'`}; name one with --server (${names})`);
}

/** RFC 6570 level 1 matching, enough to find the server a URI came from: each {var} is one segment or more. */
function templateMatches(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith('{') ? '.+?' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(uri);
}
