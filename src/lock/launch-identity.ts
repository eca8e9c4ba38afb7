import { basename } from 'node:path';
import type { RawServerConfig } from '../config/config-types.js';
import { detectPackageRunner, packageNameOf } from '../mcp/connect/package-runner.js';
import { maskArgs, maskSecrets } from '../secrets/mask-secrets.js';
import type { LockedServer } from './lock-types.js';

export type LaunchIdentity = Pick<LockedServer, 'launch' | 'package' | 'image'>;

/** An exact version: 1.2.3, 1.2.3-beta.1 (npm and PEP 440 releases alike); a range or a tag is not one. */
const EXACT_VERSION = /^v?\d+(\.\d+)*([-+.][0-9A-Za-z.+-]+)?$/;

/**
 * How a configured server is started, as the lock records it (SPEC §24): the command and args, or
 * the URL, with secrets masked (maskArgs, maskSecrets: a lock is committed), and for a package-runner
 * or `docker run` launch the package or image it names. The version a runner resolved an unpinned
 * package to is not on the command line: the lock keeps what the server reports (serverInfo.version).
 */
export function launchIdentity(entry: RawServerConfig): LaunchIdentity {
  if (entry.transport !== 'stdio') return { launch: { url: maskSecrets(entry.url) } };
  const identity: LaunchIdentity = { launch: { command: maskSecrets(entry.command), args: maskArgs(entry.args) } };
  const runner = detectPackageRunner(entry.command, entry.args);
  if (runner) {
    const version = versionOf(runner.kind, runner.packageSpec);
    identity.package = {
      runner: runner.label,
      spec: runner.packageSpec,
      name: runner.kind === 'uv' ? runner.packageSpec.split(/[@=<>~!]/)[0]! : packageNameOf(runner.packageSpec),
      ...(version ? { version } : {}),
    };
  }
  const image = dockerImage(entry.command, entry.args);
  if (image) {
    const at = image.indexOf('@sha256:');
    identity.image = { ref: image, ...(at >= 0 ? { digest: image.slice(at + 1) } : {}) };
  }
  return identity;
}

/** The exact version a package spec names: `pkg@1.2.3` (npm, bun, uv), `pkg==1.2.3` (uv); undefined for none, a range or a tag. */
function versionOf(kind: string, spec: string): string | undefined {
  const pep = kind === 'uv' ? /==([^,;\s]+)$/.exec(spec)?.[1] : undefined;
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  const version = pep ?? (at > 0 ? spec.slice(at + 1) : undefined);
  return version !== undefined && EXACT_VERSION.test(version) ? version : undefined;
}

// `docker run` flags that take a value (docs.docker.com/reference/cli/docker/container/run/): the value is not the image.
const DOCKER_FLAGS_WITH_VALUE = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '--mount',
  '--name',
  '-p',
  '--publish',
  '--network',
  '--net',
  '-w',
  '--workdir',
  '--entrypoint',
  '-u',
  '--user',
  '-l',
  '--label',
  '--platform',
  '--pull',
  '-h',
  '--hostname',
  '--add-host',
  '--cpus',
  '-m',
  '--memory',
  '--restart',
  '--runtime',
  '--security-opt',
  '--cap-add',
  '--cap-drop',
  '--device',
  '--dns',
  '--gpus',
  '--ipc',
  '--log-driver',
  '--log-opt',
  '--pid',
  '--shm-size',
  '--ulimit',
  '--tmpfs',
  '--stop-signal',
  '--stop-timeout',
  '--label-file',
  '--cidfile',
]);

/** The image of a `docker run` / `podman run` launch, as written. */
function dockerImage(command: string, args: string[]): string | undefined {
  if (!/^(docker|podman)(\.exe)?$/i.test(basename(command)) || args[0] !== 'run') return undefined;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (DOCKER_FLAGS_WITH_VALUE.has(arg)) i++;
  }
  return undefined;
}

/**
 * Why a launch is not pinned, or undefined when it is (SPEC §24): the same entry can start other code
 * tomorrow. `npx pkg` and `npx pkg@latest` run whatever the registry's latest is at each start;
 * `uvx pkg` likewise (docs.astral.sh/uv/guides/tools: "uvx tool@latest" / "tool==version" pin it);
 * `docker run image` and `image:latest` pull whatever the tag points at, unless a digest is given.
 */
export function unpinnedLaunch(identity: LaunchIdentity): string | undefined {
  const pkg = identity.package;
  if (pkg && pkg.version === undefined) {
    const tag = pkg.spec.slice(pkg.name.length).replace(/^@|^==/, '');
    const what = tag === '' ? 'without a version' : tag === 'latest' ? 'at @latest' : `at '${tag}', not an exact version`;
    return `${pkg.runner} runs ${pkg.name} ${what}: each start may run a newer release; pin it (${pkg.name}${pkg.runner === 'uvx' ? '==' : '@'}X.Y.Z)`;
  }
  const image = identity.image;
  if (image && image.digest === undefined) {
    const lastPart = image.ref.split('/').pop()!;
    const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : undefined;
    if (tag === undefined || tag === 'latest')
      return `docker runs ${image.ref}${tag === undefined ? ' (no tag: latest)' : ''}: the tag can point at another image tomorrow; pin it by digest (${image.ref.replace(/:latest$/, '')}@sha256:…)`;
  }
  return undefined;
}
