/**
 * Headers that belong to one request URL and method and must be made again for each redirect hop:
 * a DPoP proof names its `htu` and `htm` (RFC 9449 §4.2), so the proof of the first hop is refused
 * at the second. Whoever builds such headers registers how to rebuild them; fetchWithinOrigin asks
 * at each hop it follows. A WeakMap on the Headers object: nothing to clean up, nothing in RequestInit.
 */
const rebuilders = new WeakMap<Headers, (url: URL, method: string) => Headers>();

export function rebuildPerHop(headers: Headers, rebuild: (url: URL, method: string) => Headers): Headers {
  rebuilders.set(headers, rebuild);
  return headers;
}

/** The headers for the next hop: rebuilt when they were registered, else the same. */
export function headersForHop(headers: RequestInit['headers'], url: URL, method: string): RequestInit['headers'] {
  const rebuild = headers instanceof Headers ? rebuilders.get(headers) : undefined;
  return rebuild ? rebuild(url, method) : headers;
}
