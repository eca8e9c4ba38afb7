import { describe, expect, it } from 'vitest';
import { cspAllows, resolveLoad, scanHtml, sourceAllows } from '../../src/extensions/apps/html-loads.js';

/** The static half of apps/html-loads and apps/html-document: what an App's HTML loads, and which CSP source allows it. */

describe('scanHtml', () => {
  it('finds what the document loads, each with the CSP field it needs', () => {
    const { loads, problems } = scanHtml(
      [
        '<!DOCTYPE html><html><head>',
        '<script type=module src=https://cdn.example.com/app.js></script>',
        '<link rel="stylesheet" href="https://cdn.example.com/app.css"><link rel="preconnect" href="https://api.example.com">',
        '<style>@import "https://fonts.example.com/f.css"; .x { background: url(\'https://img.example.com/bg.png\') }</style>',
        '</head><body>',
        '<img src="data:image/png;base64,AAAA" srcset="https://img.example.com/a.png 1x, https://img.example.com/b.png 2x">',
        '<iframe src="https://www.youtube.com/embed/x"></iframe><div style="background:url(https://img.example.com/c.png)"></div>',
        '</body></html>',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(loads.map((load) => `${load.what} ${load.url} ${load.field}`)).toEqual([
      'script src https://cdn.example.com/app.js resourceDomains',
      'link rel=stylesheet href https://cdn.example.com/app.css resourceDomains',
      'style url() https://img.example.com/bg.png resourceDomains',
      'style url() https://fonts.example.com/f.css resourceDomains',
      'img src data:image/png;base64,AAAA resourceDomains',
      'img srcset https://img.example.com/a.png resourceDomains',
      'img srcset https://img.example.com/b.png resourceDomains',
      'iframe src https://www.youtube.com/embed/x frameDomains',
      'style attribute url() https://img.example.com/c.png resourceDomains',
    ]);
  });

  it('reads no markup inside scripts and comments', () => {
    const { loads, problems } = scanHtml(
      '<!doctype html><html><!-- <script src="https://a.example.com/x.js"></script> --><script>const s = \'<img src="https://b.example.com/y.png">\';</script></html>',
    );
    expect(problems).toEqual([]);
    expect(loads).toEqual([]);
  });

  it('says what is not a well-formed document', () => {
    expect(scanHtml('<div>hello</div>').problems).toEqual(['no <!DOCTYPE html> or <html> element: not an HTML document']);
    expect(scanHtml('<!DOCTYPE html><html><script>let a = 1;').problems).toEqual(['<script> opened at offset 21 is never closed (</script>)']);
    expect(scanHtml('<!DOCTYPE html><html><!-- open').problems).toEqual(['a comment opened at offset 21 is never closed (-->)']);
  });
});

describe('resolveLoad', () => {
  it('tells origins, inline URLs and relative ones (resolved against <base href> when there is one)', () => {
    expect(resolveLoad('data:image/png;base64,AAAA', undefined)).toEqual({ kind: 'inline' });
    expect(resolveLoad('#mask', undefined)).toEqual({ kind: 'inline' });
    expect(resolveLoad('images/a.svg', undefined)).toEqual({ kind: 'relative' });
    expect(resolveLoad('//cdn.example.com/a.js', undefined)).toMatchObject({ kind: 'origin', url: new URL('https://cdn.example.com/a.js') });
    expect(resolveLoad('a.js', 'https://cdn.example.com/app/')).toMatchObject({ kind: 'origin', url: new URL('https://cdn.example.com/app/a.js') });
  });
});

describe('sourceAllows: CSP source expressions as the extension takes them', () => {
  const url = (text: string) => new URL(text);
  it('an origin matches its own host, scheme and default port only', () => {
    expect(sourceAllows('https://cdn.example.com', url('https://cdn.example.com/a.js'))).toBe(true);
    expect(sourceAllows('https://cdn.example.com', url('https://evil.example.net/a.js'))).toBe(false);
    expect(sourceAllows('https://cdn.example.com', url('http://cdn.example.com/a.js'))).toBe(false);
    expect(sourceAllows('https://cdn.example.com', url('https://cdn.example.com:8443/a.js'))).toBe(false);
    expect(sourceAllows('https://cdn.example.com:8443', url('https://cdn.example.com:8443/a.js'))).toBe(true);
    expect(sourceAllows('http://localhost:3000', url('http://localhost:3000/@vite/client'))).toBe(true);
  });

  it('http: allows https (CSP3 upgrade), a bare host any web scheme, a wildcard subdomains but not the apex', () => {
    expect(sourceAllows('http://cdn.example.com', url('https://cdn.example.com/a.js'))).toBe(true);
    expect(sourceAllows('cdn.example.com', url('https://cdn.example.com/a.js'))).toBe(true);
    expect(sourceAllows('https://*.example.com', url('https://a.b.example.com/x'))).toBe(true);
    expect(sourceAllows('https://*.example.com', url('https://example.com/x'))).toBe(false);
    expect(sourceAllows('https://*.example.com', url('https://example.com.evil.net/x'))).toBe(false);
    expect(sourceAllows('https://cdn.example.com/assets/', url('https://cdn.example.com/other.js'))).toBe(true);
  });

  it('an absent or empty field allows nothing (the spec’s secure default)', () => {
    expect(cspAllows({}, 'resourceDomains', url('https://cdn.example.com/a.js'))).toBe(false);
    expect(cspAllows({ resourceDomains: [] }, 'resourceDomains', url('https://cdn.example.com/a.js'))).toBe(false);
    expect(cspAllows({ connectDomains: ['https://cdn.example.com'] }, 'resourceDomains', url('https://cdn.example.com/a.js'))).toBe(false);
  });
});
