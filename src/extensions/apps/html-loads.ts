import type { AppCsp, CspField } from './apps-wire.js';

/**
 * What an App's HTML loads, found statically (no browser): the elements and attributes that fetch
 * something when the document renders, and CSS `url()`/`@import`. Each load is judged against the
 * CSP field the host builds its directive from (ext-apps spec.types.d.ts McpUiResourceCsp:
 * resourceDomains → script/style/img/font/media-src, frameDomains → frame-src, baseUriDomains →
 * base-uri). Script code itself (fetch, XHR) is not read: what a script calls is not static.
 */

export interface HtmlLoad {
  /** `script src`, `link href`, `img srcset`, `style url()`… */
  what: string;
  url: string;
  field: CspField;
}

export interface HtmlScan {
  loads: HtmlLoad[];
  /** Why the text is not a well-formed HTML document (an unclosed comment, tag or script); empty when it is. */
  problems: string[];
  /** `<base href>`, which relative URLs resolve against. */
  base?: string;
}

/** Elements whose text is not markup: scanned to their end tag without looking for tags inside. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'iframe']);

/** `link rel` values that fetch (preconnect and dns-prefetch only resolve or open a socket). */
const LOADING_RELS = new Set(['stylesheet', 'preload', 'modulepreload', 'prefetch', 'icon', 'shortcut', 'apple-touch-icon', 'manifest']);

interface Tag {
  name: string;
  attributes: Map<string, string>;
}

/** A small HTML tokenizer: start tags and their attributes, comments, raw-text elements (WHATWG "tokenization", simplified). */
export function scanHtml(html: string): HtmlScan {
  const loads: HtmlLoad[] = [];
  const problems: string[] = [];
  let base: string | undefined;
  let index = 0;
  // Lower-cased once: end tags are searched in it (a 4 MB bundle has many scripts).
  const lower = html.toLowerCase();
  const add = (what: string, url: string | undefined, field: CspField) => {
    const trimmed = url?.trim();
    if (trimmed) loads.push({ what, url: trimmed, field });
  };
  while (index < html.length) {
    const open = html.indexOf('<', index);
    if (open < 0) break;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      if (close < 0) {
        problems.push(`a comment opened at offset ${open} is never closed (-->)`);
        break;
      }
      index = close + 3;
      continue;
    }
    if (html.startsWith('<!', open) || html.startsWith('<?', open) || html.startsWith('</', open)) {
      const close = html.indexOf('>', open + 2);
      if (close < 0) {
        problems.push(`markup opened at offset ${open} is never closed (>)`);
        break;
      }
      index = close + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(html[open + 1] ?? '')) {
      index = open + 1;
      continue;
    }
    const parsed = readTag(html, open);
    if (!parsed) {
      problems.push(`a tag opened at offset ${open} is never closed (>)`);
      break;
    }
    const { tag, end } = parsed;
    index = end;
    const attr = (name: string) => tag.attributes.get(name);
    switch (tag.name) {
      case 'script':
        add('script src', attr('src'), 'resourceDomains');
        break;
      case 'link': {
        const rels = (attr('rel') ?? '').toLowerCase().split(/\s+/);
        if (rels.some((rel) => LOADING_RELS.has(rel))) add(`link rel=${rels.join(' ')} href`, attr('href'), 'resourceDomains');
        break;
      }
      case 'img':
      case 'source':
      case 'input':
        if (tag.name !== 'input' || (attr('type') ?? '').toLowerCase() === 'image') add(`${tag.name} src`, attr('src'), 'resourceDomains');
        for (const url of srcsetUrls(attr('srcset'))) add(`${tag.name} srcset`, url, 'resourceDomains');
        break;
      case 'video':
      case 'audio':
      case 'track':
        add(`${tag.name} src`, attr('src'), 'resourceDomains');
        add(`${tag.name} poster`, attr('poster'), 'resourceDomains');
        break;
      case 'iframe':
      case 'frame':
        add(`${tag.name} src`, attr('src'), 'frameDomains');
        break;
      case 'object':
        add('object data', attr('data'), 'resourceDomains');
        break;
      case 'embed':
        add('embed src', attr('src'), 'resourceDomains');
        break;
      case 'base':
        base ??= attr('href')?.trim();
        add('base href', attr('href'), 'baseUriDomains');
        break;
    }
    const style = attr('style');
    if (style) for (const url of cssUrls(style)) add('style attribute url()', url, 'resourceDomains');
    if (RAW_TEXT.has(tag.name) && !parsed.selfClosed) {
      const close = lower.indexOf(`</${tag.name}`, index);
      if (close < 0) {
        problems.push(`<${tag.name}> opened at offset ${open} is never closed (</${tag.name}>)`);
        break;
      }
      if (tag.name === 'style') for (const url of cssUrls(html.slice(index, close))) add('style url()', url, 'resourceDomains');
      index = close;
    }
  }
  if (!/<html[\s>]/i.test(html) && !/<!doctype\s+html/i.test(html)) problems.push('no <!DOCTYPE html> or <html> element: not an HTML document');
  return { loads, problems, ...(base ? { base } : {}) };
}

/** Where an unquoted attribute value ends (searched from a position, never on a copy of the rest). */
const UNQUOTED_END = /[\s>]/g;

function readTag(html: string, open: number): { tag: Tag; end: number; selfClosed: boolean } | undefined {
  const nameMatch = /^[A-Za-z][^\s/>]*/.exec(html.slice(open + 1, open + 200));
  if (!nameMatch) return undefined;
  const attributes = new Map<string, string>();
  let index = open + 1 + nameMatch[0].length;
  for (;;) {
    while (index < html.length && /[\s/]/.test(html[index]!)) index += 1;
    if (index >= html.length) return undefined;
    if (html[index] === '>') {
      const selfClosed = html[index - 1] === '/';
      return { tag: { name: nameMatch[0].toLowerCase(), attributes }, end: index + 1, selfClosed };
    }
    const nameEnd = /[\s/>=]/.exec(html.slice(index, index + 500));
    if (!nameEnd) return undefined;
    const name = html.slice(index, index + nameEnd.index).toLowerCase();
    index += Math.max(nameEnd.index, 1);
    while (index < html.length && /\s/.test(html[index]!)) index += 1;
    let value = '';
    if (html[index] === '=') {
      index += 1;
      while (index < html.length && /\s/.test(html[index]!)) index += 1;
      const quote = html[index];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, index + 1);
        if (close < 0) return undefined;
        value = html.slice(index + 1, close);
        index = close + 1;
      } else {
        UNQUOTED_END.lastIndex = index;
        const end = UNQUOTED_END.exec(html);
        if (!end) return undefined;
        value = html.slice(index, end.index);
        index = end.index;
      }
    }
    if (name && !attributes.has(name)) attributes.set(name, decodeEntities(value));
  }
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|apos|lt|gt|#(\d+)|#x([0-9a-f]+));/gi, (whole, name: string, decimal?: string, hex?: string) => {
    if (decimal) return String.fromCodePoint(Number(decimal));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[name.toLowerCase()] ?? whole;
  });
}

function srcsetUrls(srcset: string | undefined): string[] {
  if (!srcset) return [];
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/** `url(...)` and `@import "..."` in CSS text. */
function cssUrls(css: string): string[] {
  const urls: string[] = [];
  for (const match of css.matchAll(/url\(\s*(["']?)([^"')]+)\1\s*\)/gi)) urls.push(match[2]!);
  for (const match of css.matchAll(/@import\s+(["'])([^"']+)\1/gi)) urls.push(match[2]!);
  return urls;
}

/** A load's URL, resolved: an origin to judge, a URL that needs none (data:, blob:, a fragment), or a relative one with nothing to resolve against. */
export type ResolvedLoad = { kind: 'origin'; url: URL } | { kind: 'inline' } | { kind: 'relative' };

export function resolveLoad(url: string, base: string | undefined): ResolvedLoad {
  if (/^(data|blob|about|javascript|mailto):/i.test(url) || url.startsWith('#')) return { kind: 'inline' };
  if (url.startsWith('//')) return toOrigin(`https:${url}`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return toOrigin(url);
  if (base && /^[a-z][a-z0-9+.-]*:\/\//i.test(base)) {
    try {
      return { kind: 'origin', url: new URL(url, base) };
    } catch {
      return { kind: 'relative' };
    }
  }
  return { kind: 'relative' };
}

function toOrigin(text: string): ResolvedLoad {
  try {
    return { kind: 'origin', url: new URL(text) };
  } catch {
    return { kind: 'relative' };
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/**
 * Whether a CSP source expression as the extension takes them (`https://cdn.example.com`,
 * `https://*.example.com`, `cdn.example.com`, `*`) allows the URL: the CSP3 "source expression"
 * match, paths left out (lenient: a path never makes toolrun call a load blocked that is not).
 */
export function sourceAllows(source: string, url: URL): boolean {
  const expression = source.trim();
  if (expression === '*') return !/^(data|blob|filesystem):$/.test(url.protocol);
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+|\*)(?::(\d+|\*))?(?:\/.*)?$/i.exec(expression);
  if (!match) return false;
  const [, scheme, wildcard, host, port] = match;
  const protocol = url.protocol;
  if (scheme) {
    const wanted = `${scheme.toLowerCase()}:`;
    // CSP3: http: also allows https:, ws: also wss:, and http(s) allow ws(s) of the same security.
    const allowed = wanted === 'http:' ? ['http:', 'https:', 'ws:', 'wss:'] : wanted === 'https:' ? ['https:', 'wss:'] : wanted === 'ws:' ? ['ws:', 'wss:'] : [wanted];
    if (!allowed.includes(protocol)) return false;
  } else if (!['https:', 'wss:', 'http:', 'ws:'].includes(protocol)) return false;
  const hostname = url.hostname.toLowerCase();
  const wantedHost = host!.toLowerCase();
  if (wildcard) {
    if (!hostname.endsWith(`.${wantedHost}`)) return false;
  } else if (wantedHost !== '*' && hostname !== wantedHost) return false;
  if (port && port !== '*') {
    const urlPort = url.port || DEFAULT_PORTS[protocol] || '';
    if (urlPort !== port) return false;
  } else if (!port && url.port !== '') {
    // No port in the expression: only the scheme's default port matches (URL leaves a default port out).
    return false;
  }
  return true;
}

/** The origins a field of the CSP allows a URL from (none when the field is empty or absent: the spec's secure default). */
export function cspAllows(csp: AppCsp, field: CspField, url: URL): boolean {
  return (csp[field] ?? []).some((source) => sourceAllows(source, url));
}
