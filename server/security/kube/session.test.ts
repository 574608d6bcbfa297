import { describe, expect, it } from 'vitest';
import {
  issueUserSession,
  SessionTooLarge,
  USER_SESSION_MAX_AGE_S,
  verifyUserSession,
} from './session';

const SECRET = 'a-shared-session-secret-of-32-chars!!';
const T0 = Date.UTC(2026, 0, 1);
const bob = { username: 'bob', uid: 'u-1', groups: ['shop-devs'], via: 'token' as const };

describe('user sessions', () => {
  it('name the user, verify under the shared secret (any replica), and hold nothing else', () => {
    const s = issueUserSession(bob, SECRET, T0);
    expect(s.startsWith('k1.')).toBe(true);
    expect(verifyUserSession(s, SECRET, T0 + 1000)).toEqual(bob);
    expect(JSON.parse(Buffer.from(s.split('.')[2]!, 'base64url').toString())).toEqual({
      u: 'bob',
      i: 'u-1',
      g: ['shop-devs'],
    });
  });

  it('refuse another secret, a changed user or signature, an expired or future session', () => {
    const s = issueUserSession(bob, SECRET, T0);
    const [v, iat, , sig] = s.split('.');
    const alice = Buffer.from(JSON.stringify({ u: 'alice', g: ['ops'] })).toString('base64url');
    expect(verifyUserSession(s, `${SECRET}x`, T0)).toBeUndefined();
    expect(verifyUserSession(`${v}.${iat}.${alice}.${sig}`, SECRET, T0)).toBeUndefined();
    expect(verifyUserSession(`${s.slice(0, -2)}AA`, SECRET, T0)).toBeUndefined();
    expect(verifyUserSession(s, SECRET, T0 + (USER_SESSION_MAX_AGE_S + 1) * 1000)).toBeUndefined();
    expect(verifyUserSession(s, SECRET, T0 - 120_000)).toBeUndefined();
    for (const bad of ['', 'k1', 'k1.a.b', 'v1.x.y.z', `${s}.x`, 'k1.!!.a.b'])
      expect(verifyUserSession(bad, SECRET, T0), bad).toBeUndefined();
  });

  it('do not fit a user with thousands of groups: refused at sign-in, with what to do instead', () => {
    const many = { ...bob, groups: Array.from({ length: 500 }, (_, i) => `group-${i}`) };
    expect(() => issueUserSession(many, SECRET, T0)).toThrow(SessionTooLarge);
    expect(() => issueUserSession(many, SECRET, T0)).toThrow(/Authorization: Bearer/);
  });
});
