import { UsageError } from '../errors.js';

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
