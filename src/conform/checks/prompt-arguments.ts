import type { ConformContext } from '../check-types.js';

/** A stand-in value for a required prompt argument the server offers no completion for. */
export const PROMPT_ARGUMENT_PLACEHOLDER = 'toolrun';

/** The arguments a prompt is got with, and which of them toolrun made up (no completion offered). */
export interface PromptArguments {
  args: Record<string, string>;
  madeUp: string[];
}

/**
 * Fills each required argument with the server's own first completion (`completion/complete`, when
 * it declares `completions`), else with the placeholder. A value toolrun made up may be refused by
 * a server that checks it; a value the server suggested may not.
 */
export async function fillPromptArguments(context: ConformContext, prompt: string, required: string[]): Promise<PromptArguments> {
  const args: Record<string, string> = {};
  const madeUp: string[] = [];
  for (const name of required) {
    const offered = context.capabilities.completions ? await firstCompletion(context, prompt, name, args) : undefined;
    if (offered === undefined) madeUp.push(name);
    args[name] = offered ?? PROMPT_ARGUMENT_PLACEHOLDER;
  }
  return { args, madeUp };
}

async function firstCompletion(context: ConformContext, prompt: string, argument: string, filled: Record<string, string>): Promise<string | undefined> {
  const answer = await context.channel.request('completion/complete', {
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name: argument, value: '' },
    ...(Object.keys(filled).length > 0 ? { context: { arguments: filled } } : {}),
  });
  if (answer.kind !== 'result') return undefined;
  const values = (answer.result.completion as { values?: unknown } | undefined)?.values;
  return Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
}
