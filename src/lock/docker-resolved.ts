import { execFile } from 'node:child_process';

/** The engine answers from its local store; a daemon that does not answer in this time is left out, not waited on. */
const INSPECT_TIMEOUT_MS = 10_000;

/**
 * The digest the engine resolved a `docker run` (or `podman run`) launch's image to, asked after the
 * server started, so the image is in the local store: `docker image inspect --format '{{json
 * .RepoDigests}}' REF` lists `repository@sha256:…` for an image that came from a registry
 * (docs.docker.com/reference/cli/docker/image/inspect/; podman takes the same command). The entry of
 * the launch's own repository is taken, else the first. Undefined when there is none (an image built
 * locally has no repo digest), the engine is missing, or it does not answer in 10 s.
 */
export function dockerResolvedDigest(engine: string, ref: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(engine, ['image', 'inspect', '--format', '{{json .RepoDigests}}', ref], { env, timeout: INSPECT_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error) return resolve(undefined);
      resolve(pickDigest(String(stdout), ref));
    });
  });
}

function pickDigest(output: string, ref: string): string | undefined {
  let digests: unknown;
  try {
    digests = JSON.parse(output.trim().split('\n')[0] ?? '');
  } catch {
    return undefined;
  }
  if (!Array.isArray(digests)) return undefined;
  const entries = digests.filter((entry): entry is string => typeof entry === 'string' && /@sha256:[0-9a-f]{64}$/.test(entry));
  const repository = repositoryOf(ref);
  const own = entries.find((entry) => entry.slice(0, entry.indexOf('@')) === repository) ?? entries[0];
  return own?.slice(own.indexOf('@') + 1);
}

/** `ghcr.io/o/x:1.2@sha256:…` → `ghcr.io/o/x`: the image's name without its tag or digest. */
function repositoryOf(ref: string): string {
  const name = ref.split('@')[0]!;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  return colon > slash ? name.slice(0, colon) : name;
}
