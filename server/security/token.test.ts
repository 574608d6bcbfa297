import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredToken, presentedToken, tokenMatches } from './token';
import { contentSecurityPolicy } from './headers';

describe('token', () => {
  it('reads the token from the environment or a file', () => {
    expect(configuredToken({})).toBeUndefined();
    expect(configuredToken({ PODSCOPE_TOKEN: 'abc' })).toBe('abc');
    const dir = mkdtempSync(join(tmpdir(), 'tok-'));
    writeFileSync(join(dir, 't'), 'from-file\n');
    expect(configuredToken({ PODSCOPE_TOKEN_FILE: join(dir, 't') })).toBe('from-file');
  });

  it('an unreadable token file locks the door rather than opening it', () => {
    const t = configuredToken({ PODSCOPE_TOKEN_FILE: '/nonexistent/podscope-token' });
    expect(t).toBeDefined();
    expect(tokenMatches('', t ?? '')).toBe(false);
  });

  it('matches only the exact token, whatever the lengths', () => {
    expect(tokenMatches('s3cret-token-0123', 's3cret-token-0123')).toBe(true);
    expect(tokenMatches('s3cret-token-012', 's3cret-token-0123')).toBe(false);
    expect(tokenMatches('s3cret-token-01234', 's3cret-token-0123')).toBe(false);
    expect(tokenMatches(undefined, 'x')).toBe(false);
    expect(tokenMatches('', 'x')).toBe(false);
  });

  it('takes the bearer header, then ?token=, then the cookie', () => {
    const h = (v?: string) => new Headers(v ? { authorization: v } : {});
    expect(presentedToken({ headers: h('Bearer abc'), url: 'http://x/?token=q' }, 'c')).toEqual({
      token: 'abc',
      fromQuery: false,
    });
    expect(presentedToken({ headers: h(), url: 'http://x/?token=q' }, 'c')).toEqual({
      token: 'q',
      fromQuery: true,
    });
    expect(presentedToken({ headers: h(), url: 'http://x/' }, 'c')).toEqual({
      token: 'c',
      fromQuery: false,
    });
    expect(presentedToken({ headers: h(), url: 'http://x/' }, undefined)).toEqual({
      fromQuery: false,
    });
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
