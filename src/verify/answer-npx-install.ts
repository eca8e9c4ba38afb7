import type { ComposedLaunch } from './verify-types.js';

/**
 * npx without -y (VS Code composes `npx id@version`) asks before installing, and npm 10 without a
 * terminal cancels instead ("npx canceled due to missing packages and no YES option"). toolrun
 * answers the question a user would (`npm_config_yes=true`, unless the launch sets it), so what runs
 * is the package, not the prompt: `mcp verify --launch` and config entries that name a package.
 */
export function answerNpxInstall(launch: ComposedLaunch): ComposedLaunch {
  if (launch.transport !== 'stdio' || !/(^|[\\/])npx(\.cmd)?$/i.test(launch.command) || launch.env.npm_config_yes !== undefined) return launch;
  return { ...launch, env: { ...launch.env, npm_config_yes: 'true' } };
}
