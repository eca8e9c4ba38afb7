import type { CheckOutcome, ConformCheck, ConformContext } from '../../../src/conform/check-types.js';
import { contextFor, FakeChannel, type ScriptedServer } from '../fake-channel.js';

/** Runs one check against a scripted server, as the runner would. */
export async function runCheck(check: ConformCheck, server: ScriptedServer, overrides: Partial<ConformContext> = {}): Promise<CheckOutcome & { channel: FakeChannel }> {
  const channel = new FakeChannel(server, overrides.timeoutMs ?? 300);
  const outcome = await check.run(contextFor(channel, overrides));
  return { ...outcome, channel };
}
