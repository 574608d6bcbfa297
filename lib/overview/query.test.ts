import { describe, expect, it } from 'vitest';
import { globMatch, MAX_QUERY_LENGTH, parseQuery, quoteValue } from './query';

const terms = (q: string) => {
  const p = parseQuery(q);
  if (p.error) throw new Error(p.error.message);
  return p.query.terms.map((t) => `${t.key}=${t.value}@${t.at}`);
};

describe('parseQuery', () => {
  it.each([
    ['ns:shop reason:CrashLoopBackOff', ['ns=shop@0', 'reason=CrashLoopBackOff@8']],
    ['web', ['pod=web@0']],
    ['  node:worker-7   label:app=web ', ['node=worker-7@2', 'label=app=web@18']],
    [
      'phase:Pending state:waiting ready:false',
      ['phase=Pending@0', 'state=waiting@14', 'ready=false@28'],
    ],
    ['label:"team=a b" "two words"', ['label=team=a b@0', 'pod=two words@17']],
    ['pod:"say \\"hi\\""', ['pod=say "hi"@0']],
    ['NS:shop', ['ns=shop@0']],
    ['', []],
    ['health:failing nodeready:Unknown', ['health=failing@0', 'nodeready=Unknown@15']],
  ])('%s', (q, want) => {
    expect(terms(q)).toEqual(want);
  });

  it.each([
    ['colour:red', 'unknown key "colour"', 0],
    ['ns:', '"ns:" needs a value', 0],
    ['ready:maybe', 'ready: is true or false', 0],
    ['state:sleeping', 'state: is one of', 0],
    ['pod:"open', 'unclosed quote', 4],
    ['pod:"a"b', 'a space must follow', 7],
    ['ab"c', 'a quote inside a word', 2],
    ['x label:=v', 'label: needs a key', 2],
  ])('%s fails with a position', (q, message, at) => {
    const p = parseQuery(q);
    expect(p.error?.message).toContain(message);
    expect(p.error?.at).toBe(at);
  });

  it('never throws, whatever it is given', () => {
    for (const q of [
      undefined,
      null,
      42,
      {},
      'x'.repeat(MAX_QUERY_LENGTH + 1),
      '"'.repeat(50),
      'a:'.repeat(40),
      '\u0000:\u0000',
    ]) {
      expect(() => parseQuery(q)).not.toThrow();
    }
    expect(parseQuery('x'.repeat(MAX_QUERY_LENGTH + 1)).error?.message).toContain('longer');
    expect(
      parseQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')).error?.message,
    ).toContain('terms');
  });

  it('hostile text stays a plain value', () => {
    expect(terms('label:"x=<script>alert(1)</script>" pod:__proto__ ns:constructor')).toEqual([
      'label=x=<script>alert(1)</script>@0',
      'pod=__proto__@36',
      'ns=constructor@50',
    ]);
  });

  it('node-only queries are marked', () => {
    const nodeOnly = (q: string) => {
      const p = parseQuery(q);
      return p.error ? undefined : p.query.nodeOnly;
    };
    expect(nodeOnly('node:a nodeready:unknown')).toBe(true);
    expect(nodeOnly('node:a web')).toBe(false);
    expect(nodeOnly('')).toBe(false);
  });
});

describe('globMatch', () => {
  it.each([
    ['a', 'a', true],
    ['a', 'ab', false],
    ['a*', 'ab', true],
    ['*b', 'ab', true],
    ['a*c', 'abc', true],
    ['a*c', 'ac', true],
    ['a*b*c', 'abxbc', true],
    ['a*a', 'a', false],
    ['*', '', true],
    ['.*', 'x', false],
  ])('%s ~ %s', (p, t, want) => {
    expect(globMatch(p, t)).toBe(want);
  });
});

it('quoteValue round-trips through the parser', () => {
  for (const v of ['plain', 'two words', 'say "hi"', 'back\\slash']) {
    expect(terms(`pod:${quoteValue(v)}`)).toEqual([`pod=${v}@0`]);
  }
});
