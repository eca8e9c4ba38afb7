import type { LanguageModel } from 'ai';
import { UsageError } from '../errors.js';
import type { ModelFetch } from './model-fetch.js';
import type { ModelSpec } from './model-spec.js';

/**
 * The AI SDK model for a spec, its requests going through `fetch` (live, recording or replaying).
 * The providers are imported here, lazily: only `toolrun eval` pays for them.
 */
export async function createModel(
  spec: ModelSpec,
  /** baseUrl: --base-url for a compatible model; for a hosted one, its provider's variable (model-spec.ts baseUrlFor), or its default when absent. */
  options: { apiKey: string | undefined; baseUrl?: string; fetch: ModelFetch },
): Promise<LanguageModel> {
  // A replay needs no key: a placeholder keeps the providers from refusing to start; it is never sent anywhere.
  const apiKey = options.apiKey ?? 'no-key';
  switch (spec.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey, fetch: options.fetch, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) })(spec.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey, fetch: options.fetch, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) })(spec.model);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      // Gemini's function calls carry no id, so the provider makes one (random by default) and sends it back
      // with the call's result in the next request: numbered per model instead (a model per run), so the
      // request, and its cassette key, are the same each time.
      let calls = 0;
      const generateId = () => `call_${++calls}`;
      return createGoogleGenerativeAI({ apiKey, fetch: options.fetch, generateId, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}) })(spec.model);
    }
    case 'compatible': {
      if (!options.baseUrl) throw new UsageError(`--model ${spec.label} needs --base-url URL (the endpoint's OpenAI-compatible API, e.g. http://localhost:11434/v1 for Ollama)`);
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'compatible', baseURL: options.baseUrl, ...(options.apiKey ? { apiKey: options.apiKey } : {}), fetch: options.fetch })(spec.model);
    }
  }
}
