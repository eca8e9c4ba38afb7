import { maskSecrets, maskThenCut } from '../secrets/mask-secrets.js';
import type { AuthRule } from './auth-rules.js';
import { boundedRequest, isFailure, type BoundedAnswer, type RequestLimits } from './bounded-request.js';
import { ALL_CONTROLS, spellControl } from '../text/control-characters.js';

/** The stages of the MCP authorization flow, in the order a client meets them. */
export type AuthStageName = 'challenge' | 'resource-metadata' | 'authorization-server-metadata' | 'registration' | 'authorization' | 'token' | 'identity-provider';

/** One request of the trace: what was asked, what came back, how long it took, and the rule it broke. */
export interface AuthStage {
  stage: AuthStageName;
  method: 'GET' | 'POST';
  /** The URL requested (secrets in its query masked). */
  url: string;
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  /** One line: what the answer said. */
  said: string;
  ms: number;
  rule?: AuthRule;
  fix?: string;
}

/** Records each request as a stage; its `said` is written from the answer by the caller's describer. */
export class Tracer {
  readonly stages: AuthStage[] = [];
  readonly notes: string[] = [];
  constructor(private readonly limits: RequestLimits) {}

  /** What the server said is shown as it said it (its evidence, SPEC §8), on one line; toolrun sends no secret to echo. */
  async request(stage: AuthStageName, url: URL, init: Parameters<typeof boundedRequest>[1], describe: (answer: BoundedAnswer) => string) {
    const answer = await boundedRequest(url, init, this.limits);
    const said = isFailure(answer) ? `no answer: ${answer.error}` : `${answer.redirects.length ? `redirected ${answer.redirects.map(maskSecrets).join(', ')} · ` : ''}${describe(answer)}`;
    this.stages.push({ stage, method: init.method, url: maskSecrets(url.href), status: isFailure(answer) ? null : answer.status, said: oneLine(said), ms: answer.ms });
    return answer;
  }

  /** A GET of a JSON metadata document: `ok` for a 2xx, `json` when its body is a JSON object. */
  async getJson(stage: AuthStageName, url: URL, describe: (json: Record<string, unknown>) => string) {
    let json: Record<string, unknown> | undefined;
    const raw = await this.request(stage, url, { method: 'GET', headers: { accept: 'application/json' } }, (answer) => {
      if (answer.status < 200 || answer.status >= 300) return `${answer.status}`;
      json = parseObject(answer.text);
      return json
        ? `${answer.status} · ${describe(json)}`
        : `${answer.status} · not a JSON object: ${answer.headers.get('content-type') ?? 'no content-type'}, ${JSON.stringify(maskThenCut(answer.text, 60))}`;
    });
    return { raw, ok: !isFailure(raw) && raw.status >= 200 && raw.status < 300, json };
  }
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function parseUrl(text: unknown, base?: URL): URL | undefined {
  try {
    return new URL(String(text), base);
  } catch {
    return undefined;
  }
}

const ONE_LINE_CONTROLS = new RegExp(`[${ALL_CONTROLS}]`, 'g');

/** What a server said, on one line of at most 300 characters, control characters spelled out (SPEC §8). */
export function oneLine(text: string): string {
  const flat = text.replace(ONE_LINE_CONTROLS, spellControl);
  return maskThenCut(flat, 300, '…');
}
