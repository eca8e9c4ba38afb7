import { perRunState } from '../run-environment.js';

/**
 * Where the flow's warnings go (a pinned issuer the server does not use): the engine has no
 * terminal, so the CLI gives it one, as it gives the inline login (inline-login.ts). Each said once
 * per command.
 */
const warnings = perRunState(() => ({ listener: (_message: string): void => {}, said: new Set<string>() }));

export function onAuthWarning(warn: (message: string) => void): void {
  warnings().listener = warn;
}

export function authWarning(message: string): void {
  const { listener, said } = warnings();
  if (said.has(message)) return;
  said.add(message);
  listener(message);
}
