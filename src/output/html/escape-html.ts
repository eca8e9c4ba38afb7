import { maskSecrets } from '../../secrets/mask-secrets.js';
import { escapeControls } from '../escape-controls.js';

const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// A surrogate half without its partner: UTF-8 cannot carry it, so it shows as U+FFFD rather than as garbage.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Any string for an HTML report (SPEC §17), text or attribute value alike: a tool name, a stderr line,
 * a frame. Secrets are masked (SPEC §8), control characters spelled out (`\x1b`, `\u009b`: visible, as
 * in the terminal), and the five markup characters become entities, so `</pre><script>` from a server
 * stays text. Tab and newline stay: inside <pre> they are the frame's layout, elsewhere just spaces.
 */
export function escapeHtml(value: string): string {
  return escapeControls(maskSecrets(value))
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(/[&<>"']/g, (character) => MARKUP[character]!);
}
