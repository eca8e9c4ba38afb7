/**
 * Where the flow's warnings go (a pinned issuer the server does not use): the engine has no
 * terminal, so the CLI gives it one, as it gives the inline login (inline-login.ts). Each said once.
 */
let listener: (message: string) => void = () => {};
const said = new Set<string>();

export function onAuthWarning(warn: (message: string) => void): void {
  listener = warn;
}

export function authWarning(message: string): void {
  if (said.has(message)) return;
  said.add(message);
  listener(message);
}
