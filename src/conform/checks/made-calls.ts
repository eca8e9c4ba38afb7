import type { ConformContext, PlannedCall } from '../check-types.js';
import type { ProbeAnswer, ProbeChannel } from '../probe-types.js';

/** One planned tool call as made: its answer, its progress token and where its frames start. */
export interface MadeCall {
  call: PlannedCall;
  progressToken: string;
  /** The channel's frame index when the request was sent (its notifications follow). */
  fromIndex: number;
  answer: ProbeAnswer;
}

// Calls have side effects: each planned call is made once per run (per main channel), and the
// checks that judge calls (results, progress) share them.
const madeByChannel = new WeakMap<ProbeChannel, Promise<MadeCall[]>>();

/** The calls `--call` / `--call-all` planned (skipped ones left out), made once, in order, each with a progress token. */
export function madeCalls(context: ConformContext): Promise<MadeCall[]> {
  let made = madeByChannel.get(context.channel);
  if (!made) {
    made = makeCalls(context);
    madeByChannel.set(context.channel, made);
  }
  return made;
}

export function callsToMake(context: ConformContext): PlannedCall[] {
  return context.calls.filter((call) => call.skipped === undefined);
}

async function makeCalls(context: ConformContext): Promise<MadeCall[]> {
  const made: MadeCall[] = [];
  for (const [index, call] of callsToMake(context).entries()) {
    const progressToken = `toolrun-call-${index + 1}`;
    const fromIndex = context.channel.frames.length;
    const answer = await context.channel.request('tools/call', { name: call.tool, arguments: call.arguments }, { progressToken });
    made.push({ call, progressToken, fromIndex, answer });
  }
  return made;
}

/** Why no call is judged: none planned, or every planned one skipped. */
export function noCallsReason(context: ConformContext): string {
  if (context.calls.length === 0) return 'no tool was called (tools are called only with --call or --call-all)';
  return `no tool was called: ${context.calls.map((call) => `${call.tool}: ${call.skipped}`).join('; ')}`;
}
