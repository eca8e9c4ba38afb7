import { UsageError } from '../errors.js';
import { maskSecrets } from '../secrets/mask-secrets.js';

/** `--model PROVIDER:MODEL`, read; `compatible:` also needs --base-url. */
export interface ModelSpec {
  provider: 'openai' | 'anthropic' | 'google' | 'compatible';
  model: string;
  /** As the user wrote it: the name reports use. */
  label: string;
}

const PROVIDERS = ['openai', 'anthropic', 'google', 'compatible'] as const;

/** Where each provider's key is read from (the AI SDK providers' own default variable names). */
export const KEY_VARIABLES: Record<Exclude<ModelSpec['provider'], 'compatible'>, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
};

/**
 * Where a hosted provider's endpoint can be moved (a proxy, a gateway, a recording server): the
 * variables the AI SDK's OpenAI and Anthropic providers read themselves (their createOpenAI and
 * createAnthropic default baseURL), and one of the same form for Google. `--base-url` is for
 * `compatible:` models only, so a matrix of a hosted model and a local one sends each to its own.
 */
export const BASE_URL_VARIABLES: Record<Exclude<ModelSpec['provider'], 'compatible'>, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_GENERATIVE_AI_BASE_URL',
};

/**
 * Each hosted provider's own API, as the AI SDK's providers default to it (createOpenAI, createAnthropic,
 * createGoogleGenerativeAI in node_modules/@ai-sdk/<provider>/dist/index.mjs). Always passed to the
 * provider: left to it, a variable set to '' in the environment (CI templates do that) would become an
 * empty base URL.
 */
const DEFAULT_BASE_URLS: Record<Exclude<ModelSpec['provider'], 'compatible'>, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/** The endpoint a model's requests go to: --base-url for a compatible model; the provider's variable, or its own API, for the others. */
export function baseUrlFor(spec: ModelSpec, env: NodeJS.ProcessEnv, baseUrl: string | undefined): string | undefined {
  if (spec.provider === 'compatible') return baseUrl;
  const variable = BASE_URL_VARIABLES[spec.provider];
  const value = env[variable];
  if (value === undefined || value === '') return DEFAULT_BASE_URLS[spec.provider];
  checkHttpUrl(value, variable);
  return value;
}

/** An endpoint is an http(s) URL: anything else is a usage error naming where it came from. */
export function checkHttpUrl(value: string, from: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`${from} is not an http(s) URL: '${maskSecrets(value)}' (e.g. http://localhost:11434/v1)`);
}

export function parseModelSpec(value: string): ModelSpec {
  const colon = value.indexOf(':');
  const provider = colon > 0 ? value.slice(0, colon) : '';
  const model = colon > 0 ? value.slice(colon + 1) : '';
  if (!(PROVIDERS as readonly string[]).includes(provider) || model === '')
    throw new UsageError(`--model ${value}: write PROVIDER:MODEL with PROVIDER one of ${PROVIDERS.join(', ')} (openai:gpt-4.1-mini, compatible:llama3.2 --base-url http://localhost:11434/v1)`);
  return { provider: provider as ModelSpec['provider'], model, label: value };
}

/** The key a model's requests carry: from the environment, never from a flag (a flag shows in `ps` and shell history). */
export function apiKeyFor(spec: ModelSpec, env: NodeJS.ProcessEnv, apiKeyEnv: string | undefined): string | undefined {
  const variable = spec.provider === 'compatible' ? apiKeyEnv : KEY_VARIABLES[spec.provider];
  if (variable === undefined) return undefined;
  const key = env[variable];
  if (key === undefined || key === '')
    throw new UsageError(
      spec.provider === 'compatible'
        ? `${variable} (named by --api-key-env) is not set in the environment; set it, or drop the flag for an endpoint without a key`
        : `--model ${spec.label} needs ${variable} in the environment; set it there (toolrun reads keys only from the environment, never from a flag)`,
    );
  return key;
}
