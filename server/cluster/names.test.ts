import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkClusterName, checkNodeName, clusterNames, decodeToken, encodeToken } from './names';

describe('subject tokens', () => {
  it('keep node names with dots in one token, reversibly', () => {
    expect(encodeToken('ip-10-0-0-1.ec2.internal')).toBe('ip-10-0-0-1=2Eec2=2Einternal');
    expect(decodeToken('ip-10-0-0-1=2Eec2=2Einternal')).toBe('ip-10-0-0-1.ec2.internal');
  });

  it('round-trip any string and never contain a subject or key separator', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (s) => {
        const t = encodeToken(s);
        expect(t).toMatch(/^[A-Za-z0-9_=-]+$/);
        expect(decodeToken(t)).toBe(s);
      }),
    );
  });

  it('are injective', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        if (a !== b) expect(encodeToken(a)).not.toBe(encodeToken(b));
      }),
    );
  });

  it('refuse tokens encodeToken cannot produce', () => {
    for (const bad of ['a.b', 'a=2', 'a=zz', '=41', '=FF', '*', '>', 'a b', ''])
      expect(decodeToken(bad)).toBeUndefined();
  });
});

describe('cluster names', () => {
  const n = clusterNames('prod-eu');
  it('build the stream, subjects and KV keys', () => {
    expect(n.stream).toBe('PODSCOPE_EV_prod-eu');
    expect(n.bucket).toBe('PODSCOPE_LIVE_prod-eu');
    expect(n.eventSubject('a.b')).toBe('podscope.v1.prod-eu.ev.a=2Eb');
    expect(n.eventsFilter).toBe('podscope.v1.prod-eu.ev.>');
    expect(n.nodeOfSubject('podscope.v1.prod-eu.ev.a=2Eb')).toBe('a.b');
    expect(n.nodeOfSubject('podscope.v1.other.ev.a')).toBeUndefined();
    expect(n.nodeOfSubject('podscope.v1.prod-eu.ev.a.b')).toBeUndefined();
    expect(n.parseKey(n.heartbeatKey('x.y'))).toEqual({ kind: 'hb', node: 'x.y' });
    expect(n.parseKey(n.stateKey('x'))).toEqual({ kind: 'state', node: 'x' });
    expect(n.parseKey('other.x')).toBeUndefined();
  });

  it('refuse names that would break stream or subject names', () => {
    for (const bad of ['', 'Prod', 'a.b', 'a b', '-a', 'a*', 'x'.repeat(64)])
      expect(() => checkClusterName(bad)).toThrow(/DNS label/);
    expect(() => checkNodeName('Node_1')).toThrow(/DNS-1123/);
    expect(checkNodeName('ip-10-0-0-1.ec2.internal')).toBe('ip-10-0-0-1.ec2.internal');
  });
});
