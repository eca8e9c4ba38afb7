import { describe, expect, it } from 'vitest';
import { fitsUriTemplate } from '../../src/text/uri-template-match.js';

describe('fitsUriTemplate: a URI against an RFC 6570 template, each expression any non-empty text', () => {
  it('matches and refuses as the literals say', () => {
    expect(fitsUriTemplate('file:///{path}', 'file:///a/b.txt')).toBe(true);
    expect(fitsUriTemplate('file:///{path}', 'file:///')).toBe(false);
    expect(fitsUriTemplate('repo://{owner}/{repo}/contents{/path*}', 'repo://me/toolrun/contents/src')).toBe(true);
    expect(fitsUriTemplate('repo://{owner}/{repo}/contents{/path*}', 'repo://me/contents/src')).toBe(false);
    expect(fitsUriTemplate('test://static', 'test://static')).toBe(true);
    expect(fitsUriTemplate('test://static', 'test://other')).toBe(false);
  });

  it('takes linear time on a hostile URI (a regex of (.+) groups backtracks for minutes)', () => {
    const started = performance.now();
    expect(fitsUriTemplate('repo://{owner}/{repo}/contents{/path*}', `repo://${'/'.repeat(200_000)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
