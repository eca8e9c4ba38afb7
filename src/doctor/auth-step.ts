import type { RemoteServerSpec } from '../config/resolve-server.js';
import { sendsOwnAuthorization } from '../auth/own-credentials.js';
import type { AuthStage, AuthTrace } from '../auth/trace-auth.js';
import type { StoredTokenSummary } from '../auth/token-summary.js';
import type { MachineTokenTrace } from '../auth/machine-trace.js';
import type { AuthChallengeHints } from '../auth/machine-token.js';
import { maskSecrets } from '../secrets/mask-secrets.js';
import type { SetStep } from './set-step.js';
import { toolrunCommand } from '../text/quote-shell-word.js';

export interface AuthStepOptions {
  server: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** `mcp doctor --auth-probe`: register a throwaway client and try the authorization and token endpoints. */
  probe?: boolean;
  /** The entry's pre-registered client ID (`oauth.clientId`). */
  clientId?: string;
  /**
   * The stored token for this server: a summary, null when the store has none, undefined when no
   * store was asked (then doctor connects anyway and lets the server say).
   */
  storedToken?: StoredTokenSummary | null;
  /** With no token stored, the connection logs in (someone can answer the browser). */
  loginInline?: boolean;
  /** A grant with no person: gets the token, each request recorded. */
  traceMachineToken?: (hints: AuthChallengeHints) => Promise<MachineTokenTrace>;
}

/**
 * Doctor's auth step for a remote server (SPEC §14): the authorization chain traced stage by stage,
 * before any connection. Returns whether connecting is worth trying: not when a rule is broken, nor
 * when the chain is sound but there is known to be no token (the server would only answer 401).
 */
export async function reportAuthStep(spec: RemoteServerSpec, options: AuthStepOptions, set: SetStep): Promise<{ connect: boolean; trace?: AuthTrace }> {
  // Loaded here: only doctor of a remote server traces authorization.
  const { traceAuth } = await import('../auth/trace-auth.js');
  if (sendsOwnAuthorization(spec.url, spec.headers)) {
    set('auth', 'ok', 'the entry sends its own Authorization header: no OAuth flow to trace', { data: { outcome: 'static-credentials' } });
    return { connect: true };
  }
  const grant = spec.oauth?.grant;
  const trace = await traceAuth(spec.url, { timeoutMs: spec.connectTimeoutMs, signal: options.signal, probe: options.probe, clientId: options.clientId, grant });
  const details = trace.stages.map(describeStage);
  const data = {
    outcome: trace.outcome,
    issuer: trace.issuer ?? null,
    scopes: trace.scopes ?? null,
    registration: trace.registration ?? null,
    rule: trace.rule ?? null,
    notes: trace.notes,
    probed: options.probe === true,
    stored_token: options.storedToken ?? null,
    stages: trace.stages,
    auth_ms: trace.ms,
  };
  if (trace.outcome === 'unreachable') {
    set('auth', 'skip', 'not traced: no HTTP answer (the next step says why)', { details, data });
    return { connect: true, trace };
  }
  if (trace.outcome === 'none') {
    set('auth', 'ok', `no authorization required (${trace.stages[0]!.said.replace(/: no authorization asked for$/, '')})`, { data });
    return { connect: true, trace };
  }
  if (trace.outcome === 'broken') {
    const stage = trace.stages.find((candidate) => candidate.rule);
    set('auth', 'fail', `${stage ? `${stage.stage}: ` : ''}${trace.rule!.text}`, { details, fix: trace.fix, data });
    return { connect: false, trace };
  }
  if (grant && grant !== 'authorization_code' && options.traceMachineToken) return reportMachineGrant(trace, details, data, options.traceMachineToken, set);
  const registration = { 'pre-registered': 'pre-registered client (oauth.clientId)', 'client-id-metadata-document': 'client ID metadata document', 'dynamic-registration': 'dynamic registration' }[
    trace.registration!
  ];
  const chain = `authorization required: issuer ${trace.issuer} · PKCE S256 · ${registration}${options.probe ? ' (probed)' : ''}${trace.scopes?.length ? ` · scopes ${trace.scopes.join(' ')}` : ''}`;
  const noToken = options.loginInline ? ' · no stored token: the connection logs in (a browser opens)' : ` · no stored token: ${toolrunCommand('auth', 'login', options.server)}`;
  const token = options.storedToken === undefined ? '' : options.storedToken ? ` · ${describeToken(options.storedToken)}` : noToken;
  set('auth', 'ok', `${chain}${token}`, { details: [...details, ...trace.notes.map((note) => `note: ${note}`)], data });
  return { connect: options.storedToken !== null || options.loginInline === true, trace };
}

/**
 * A grant with no person (SPEC §21): the chain is sound, so the token is got as a command would get
 * it, each request of the grant traced after the discovery ones (never a key, assertion or token).
 * A refusal fails the step with toolrun's one line and its fix; the connection is not tried.
 */
async function reportMachineGrant(
  trace: AuthTrace,
  details: string[],
  data: Record<string, unknown>,
  traceMachineToken: (hints: AuthChallengeHints) => Promise<MachineTokenTrace>,
  set: SetStep,
): Promise<{ connect: boolean; trace: AuthTrace }> {
  const chain = `authorization required: issuer ${trace.issuer}`;
  // Where the challenge said the metadata is, and whether it offered DPoP: as a command would get the token.
  const named = trace.challenge?.resourceMetadataUrl;
  const hints: AuthChallengeHints = { resourceMetadataUrl: named && URL.canParse(named) ? new URL(named) : undefined, offersDpop: trace.challenge?.offersDpop };
  try {
    const got = await traceMachineToken(hints);
    const stages = [...trace.stages, ...got.stages];
    set('auth', 'ok', `${chain} · ${got.summary}`, {
      details: [...details, ...got.stages.map(describeStage), ...trace.notes.map((note) => `note: ${note}`)],
      data: { ...data, stages, machine_grant: got.summary },
    });
    return { connect: true, trace };
  } catch (error) {
    const { why, fix, stages = [] } = error as { why?: string; fix?: string; stages?: AuthStage[] };
    set('auth', 'fail', `${chain} · ${maskSecrets(why ?? (error as Error).message)}`, {
      details: [...details, ...stages.map(describeStage)],
      fix,
      data: { ...data, stages: [...trace.stages, ...stages] },
    });
    return { connect: false, trace: { ...trace, outcome: 'broken' } };
  }
}

/** One line per request: stage, method, URL (its query left out: a probe's is long and says nothing new), what came back, time. */
function describeStage(stage: AuthStage): string {
  const url = stage.url.includes('?') ? `${stage.url.slice(0, stage.url.indexOf('?'))}?…` : stage.url;
  return `${stage.stage}: ${stage.method} ${url} → ${stage.said} (${stage.ms} ms)`;
}

function describeToken(token: StoredTokenSummary): string {
  const expiry = token.expiresAt ? `, expires ${token.expiresAt}` : '';
  const how = token.grant ? `, grant ${token.grant}${token.clientAuthentication ? ` (client authentication ${token.clientAuthentication})` : ''}` : '';
  return `token stored (issuer ${maskSecrets(token.issuer)}${token.scopes.length ? `, scopes ${token.scopes.join(' ')}` : ''}${expiry}${how}, ${token.binding === 'dpop' ? 'DPoP-bound' : 'bearer'})`;
}
