// Replaced by the bundle reader (wip/verify-mcpb) when it lands: until then a bundle is refused, not passed.
import { UsageError } from '../../errors.js';
import type { VerifyReport } from '../verify-types.js';
export async function verifyBundle(
  path: string,
  options: { userConfig: Record<string, string>; platform?: NodeJS.Platform; expectedSha256?: string },
): Promise<{ report: VerifyReport; dispose: () => Promise<void> }> {
  void options;
  throw new UsageError(`${path}: .mcpb bundles are not verified by this build yet`);
}
