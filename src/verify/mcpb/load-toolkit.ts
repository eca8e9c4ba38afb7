/**
 * The bundle toolkit (@anthropic-ai/mcpb), loaded only when a bundle is verified: most runs of toolrun
 * never read one. `./browser` is the entry that brings the manifest schemas and
 * getMcpConfigForManifest with zod alone; `.` would also load the CLI's prompts, node-forge and galactus.
 */
export type BundleToolkit = typeof import('@anthropic-ai/mcpb/browser');

let loading: Promise<BundleToolkit> | undefined;

export function loadBundleToolkit(): Promise<BundleToolkit> {
  loading ??= import('@anthropic-ai/mcpb/browser');
  return loading;
}
