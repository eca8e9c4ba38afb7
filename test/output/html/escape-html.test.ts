import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/output/html/escape-html.js';
import { html } from '../../../src/output/html/html-template.js';
import { HOSTILE } from '../conform-report-fixtures.js';

// SPEC §17: the HTML reports escape everything a server sent, in text and in attributes.
describe('escapeHtml', () => {
  it('makes markup, quotes and control characters inert and visible', () => {
    const hostile = '</pre><script>alert("x")</script><img src=x onerror=\'y\'>\u0000\u001b[2J&amp;';
    expect(escapeHtml(hostile)).toBe('&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;\\x00\\x1b[2J&amp;amp;');
  });

  it('leaves no markup character, no control character and no lone surrogate of the worst string', () => {
    const escaped = escapeHtml(HOSTILE);
    expect(escaped).not.toMatch(/[<>"'\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(escaped).not.toMatch(/[\ud800-\udfff]/);
    expect(escaped).toContain('\\x1b]0;title\\x07');
    expect(escaped).toContain('\\u009b\ufffd');
  });

  it('masks secrets (SPEC §8) as every other output does', () => {
    expect(escapeHtml('Authorization: Bearer abcdefghijklmnop')).toBe('Authorization: Bearer ***');
  });
});

describe('the html template', () => {
  it('escapes every interpolated string, in text and in attributes, and passes only its own markup through', () => {
    const name = '"><script>x</script>';
    const page = html`<td title="${name}">${name}${html`<b>${name}</b>`}${[name, 3]}${undefined}${false}</td>`.markup;
    expect(page).toBe(
      '<td title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">&quot;&gt;&lt;script&gt;x&lt;/script&gt;<b>&quot;&gt;&lt;script&gt;x&lt;/script&gt;</b>&quot;&gt;&lt;script&gt;x&lt;/script&gt;3</td>',
    );
  });
});
