/**
 * The token challenge of a 401 or 403: `Bearer` (RFC 6750 §3) or `DPoP` (RFC 9449 §7.1), with its
 * auth-params, `resource_metadata` (RFC 9728 §5.1), `scope` and `error` among them. Other schemes in
 * the same header (`Basic realm=…, Bearer …`) are skipped; when both are offered the first is read.
 */
export interface TokenChallenge {
  scheme: 'bearer' | 'dpop';
  params: Record<string, string>;
  /** A `DPoP` challenge is offered (alone or beside `Bearer`): the resource server takes DPoP-bound tokens. */
  offersDpop: boolean;
}

export function parseTokenChallenge(header: string | null): TokenChallenge | undefined {
  if (!header) return undefined;
  const found = /(^|[\s,])(bearer|dpop)(\s|$)/i.exec(header);
  if (!found) return undefined;
  const scheme = found[2]!.toLowerCase() as TokenChallenge['scheme'];
  const rest = header.slice(found.index + found[1]!.length + found[2]!.length);
  const params: Record<string, string> = {};
  // key="quoted \" value" or key=token; a new scheme name (a word with no '=') ends the challenge.
  const param = /\s*,?\s*([A-Za-z_][\w.-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/y;
  let match: RegExpExecArray | null;
  while ((match = param.exec(rest))) params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
  return { scheme, params, offersDpop: /(^|[\s,])dpop(\s|$)/i.test(header) };
}
