/**
 * The Bearer challenge of a 401 (RFC 6750 §3): its auth-params, `resource_metadata` (RFC 9728 §5.1)
 * and `scope` among them. Other schemes in the same header (`Basic realm=…, Bearer …`) are skipped.
 */
export interface BearerChallenge {
  params: Record<string, string>;
}

export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  if (!header) return undefined;
  const start = header.search(/(^|[\s,])bearer(\s|$)/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*bearer/i, '');
  const params: Record<string, string> = {};
  // key="quoted \" value" or key=token; a new scheme name (a word with no '=') ends the challenge.
  const param = /\s*,?\s*([A-Za-z_][\w.-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/y;
  let match: RegExpExecArray | null;
  while ((match = param.exec(rest))) params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
  return { params };
}
