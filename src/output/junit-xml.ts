import { maskSecrets } from '../secrets/mask-secrets.js';
import { escapeControls } from './escape-controls.js';

// The XML of JUnit reports (mcp conform --junit, toolrun test --junit): values made safe for every CI tool's parser.

export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function attributes(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${attributeValue(value)}"`)
    .join('');
}

/** Element text: masked, made XML 1.0-legal, and the five markup characters escaped (so `]]>` is harmless too). */
export function text(value: string): string {
  return legalXml(maskSecrets(value)).replace(/[&<>]/g, (character) => MARKUP[character]!);
}

/** Attribute values also keep their tabs and newlines, which a parser would otherwise fold into spaces. */
function attributeValue(value: string): string {
  return legalXml(maskSecrets(value)).replace(/[&<>"'\t\n]/g, (character) => MARKUP[character]!);
}

const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;' };

/**
 * XML 1.0 forbids most C0 controls even as `&#NN;` references, and lone surrogates and U+FFFE/FFFF
 * cannot be encoded at all: one such byte from a server would make the whole file unreadable to
 * every CI tool. They are spelled out as the terminal output spells them (`\x00`, `\ud800`).
 */
function legalXml(value: string): string {
  return escapeControls(value).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16)}`);
}
