const SECRET_NAME = /(token|secret|password|passwd|pwd|api[-_]?key|apikey|auth|credential|private|session|cookie|signature)/i;

/** `***` for values whose name says secret (API_TOKEN, Authorization…), the value otherwise. */
export function redactValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return value === '' ? '(empty)' : '***';
  return value;
}

export function redactMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, redactValue(name, value)]));
}

/** A URL with any user:password and secret-looking query parameters hidden. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (SECRET_NAME.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return url;
  }
}
