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

  // A regex of (.+) groups backtracks over every pair of the 1,000,000 slashes (10¹² steps: minutes, which
  // the test's timeout catches); the matcher answers in milliseconds. No clock is read.
  it('answers a hostile URI without backtracking', () => {
    expect(fitsUriTemplate('repo://{owner}/{repo}/contents{/path*}', `repo://${'/'.repeat(1_000_000)}`)).toBe(false);
  });
});
