/**
 * The longest URL toolrun shows whole or opens: 8,192 characters, about what web servers take in a
 * request line (nginx's large_client_header_buffers 8k, Apache's LimitRequestLine 8190). A longer
 * one is no page a person can open, and would flood the terminal.
 */
export const MAX_URL_CHARACTERS = 8192;

/** What is shown of a URL too long or not a URL. */
const SHOWN_OF_REFUSED = 200;

export type ElicitationUrl =
  /** `href`: the URL as the WHATWG parser spells it (controls, spaces, bidi controls and non-ASCII percent-encoded); what is shown and opened. */
  { href: string; shown: string; openable: boolean } | { problem: string; shown: string };

/**
 * A URL a server asks the person to open (URL-mode elicitation, a -32042 error): never handed on as
 * the server wrote it. The parser's `href` is printable ASCII whatever the server put in, so the
 * terminal shows what the browser gets; only http(s) is opened; a URL over MAX_URL_CHARACTERS is
 * shown cut and neither shown whole nor opened.
 */
export function readElicitationUrl(raw: string): ElicitationUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'not a valid URL', shown: `${JSON.stringify(raw.slice(0, SHOWN_OF_REFUSED)).slice(1, -1)}${raw.length > SHOWN_OF_REFUSED ? '…' : ''}` };
  }
  const href = url.href;
  if (href.length > MAX_URL_CHARACTERS) {
    const why = `a URL of ${href.length.toLocaleString('en-US')} characters; toolrun shows and opens URLs up to ${MAX_URL_CHARACTERS.toLocaleString('en-US')}`;
    return { problem: why, shown: `${href.slice(0, SHOWN_OF_REFUSED)}… (${why})` };
  }
  return { href, shown: href, openable: url.protocol === 'https:' || url.protocol === 'http:' };
}
