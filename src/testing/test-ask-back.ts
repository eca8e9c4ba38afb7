import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import { answerScripted } from '../elicit/scripted-answer.js';
import type { AskBack } from '../mcp/ask-back.js';
import type { StepAsks } from './test-file-types.js';

/** The asks of the step running on a server, and how many of each it has answered. */
interface Running {
  asks: StepAsks;
  elicitations: number;
  samplings: number;
}

/**
 * How `toolrun test` answers servers that ask back: a step's own `answers:`, `sampling:` and `roots:`
 * while it runs on that server (the steps of one server run one at a time), else the command's flags
 * (`fallback`, askBackFor). Sampling and roots are offered to the servers when the flags or any step
 * of the suite has them, as a command offers only what it can answer.
 */
export function createStepAskBack(fallback: AskBack, suite: { sampling: boolean; roots: boolean }) {
  const running = new Map<string, Running>();
  const askBack: AskBack = {
    elicit: async (params, context) => {
      const step = running.get(context.server);
      if (step?.asks.answers) {
        const outcome = answerScripted(params, { words: [], rounds: step.asks.answers, roundsFile: 'answers:' }, step.elicitations++);
        if (outcome.kind === 'answered') return outcome.result;
        if (outcome.kind === 'unfit') throw new Error(`the step's answers: do not fit what server '${context.server}' asked for: ${outcome.problem}`);
        // Fewer rounds than the server asked for: declined, as a command without an answer does.
        return { action: 'decline' };
      }
      if (!fallback.elicit) return { action: 'decline' };
      return fallback.elicit(params, context);
    },
    ...(fallback.sample || suite.sampling
      ? {
          sample: async (params, context) => {
            const step = running.get(context.server);
            const replies = step?.asks.sampling;
            if (replies && replies.length > 0) {
              const text = replies[Math.min(step.samplings++, replies.length - 1)]!;
              return { role: 'assistant' as const, content: { type: 'text' as const, text }, model: 'toolrun-test', stopReason: 'endTurn' };
            }
            if (fallback.sample) return fallback.sample(params, context);
            throw new Error(`server '${context.server}' asked for sampling and this step gives no sampling: replies`);
          },
        }
      : {}),
    ...(fallback.roots || suite.roots
      ? {
          roots: async (context) => {
            const roots = running.get(context.server)?.asks.roots;
            if (roots) return roots.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) || path }));
            return (await fallback.roots?.(context)) ?? [];
          },
        }
      : {}),
  };
  return {
    askBack,
    /** Runs `call` with `asks` answering `server`'s questions. */
    async during<T>(server: string | undefined, asks: StepAsks | undefined, call: () => Promise<T>): Promise<T> {
      if (!server || !asks) return call();
      running.set(server, { asks, elicitations: 0, samplings: 0 });
      try {
        return await call();
      } finally {
        running.delete(server);
      }
    },
  };
}
