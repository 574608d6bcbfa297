import { describe, expect, it } from 'vitest';
import { presentedToken, tokenMatches } from './token';
import { contentSecurityPolicy } from './headers';

describe('token', () => {
  it('matches only the exact token, whatever the lengths', () => {
    expect(tokenMatches('s3cret-token-0123', 's3cret-token-0123')).toBe(true);
    expect(tokenMatches('s3cret-token-012', 's3cret-token-0123')).toBe(false);
    expect(tokenMatches('s3cret-token-01234', 's3cret-token-0123')).toBe(false);
    expect(tokenMatches(undefined, 'x')).toBe(false);
    expect(tokenMatches('', 'x')).toBe(false);
  });

  it('takes the bearer header, then ?token= (a cookie is a session, never the token)', () => {
    const h = (v?: string) => new Headers(v ? { authorization: v } : {});
    expect(presentedToken({ headers: h('Bearer abc'), url: 'http://x/?token=q' })).toEqual({
      token: 'abc',
      fromQuery: false,
    });
    expect(presentedToken({ headers: h(), url: 'http://x/?token=q' })).toEqual({
      token: 'q',
      fromQuery: true,
    });
    expect(presentedToken({ headers: h(), url: 'http://x/' })).toEqual({ fromQuery: false });
  });
});

describe('contentSecurityPolicy', () => {
  it('allows only this origin and nonce-bearing scripts', () => {
    const csp = contentSecurityPolicy('n0nce', false);
    expect(csp).toContain(`script-src 'self' 'nonce-n0nce' 'strict-dynamic'`);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`object-src 'none'`);
    expect(csp).toContain(`frame-ancestors 'none'`);
  });
});
