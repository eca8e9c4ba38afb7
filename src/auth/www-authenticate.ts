/**
 * The token challenge of a 401 or 403: `Bearer` (RFC 6750 §3) or `DPoP` (RFC 9449 §7.1), with its
 * auth-params, `resource_metadata` (RFC 9728 §5.1), `scope` and `error` among them. Other schemes in
 * the same header (`Basic realm=…`) are skipped. A server may offer both (`DPoP algs="ES256",
 * Bearer resource_metadata="…"`): the scheme is the first offered, and the params of both are read,
 * the first offered winning where both set one.
 */
export interface TokenChallenge {
  scheme: 'bearer' | 'dpop';
  params: Record<string, string>;
  /** A `DPoP` challenge is offered (alone or beside `Bearer`): the resource server takes DPoP-bound tokens. */
  offersDpop: boolean;
}

export function parseTokenChallenge(header: string | null): TokenChallenge | undefined {
  if (!header) return undefined;
  const schemes = [...header.matchAll(/(^|[\s,])(bearer|dpop)(?=\s|$)/gi)];
  if (schemes.length === 0) return undefined;
  const params: Record<string, string> = {};
  for (const found of schemes) {
    const rest = header.slice(found.index + found[1]!.length + found[2]!.length);
    // key="quoted \" value" or key=token; a new scheme name (a word with no '=') ends the challenge.
    const param = /\s*,?\s*([A-Za-z_][\w.-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/y;
    let match: RegExpExecArray | null;
    while ((match = param.exec(rest))) params[match[1]!.toLowerCase()] ??= match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
  }
  return { scheme: schemes[0]![2]!.toLowerCase() as TokenChallenge['scheme'], params, offersDpop: schemes.some((found) => found[2]!.toLowerCase() === 'dpop') };
}
