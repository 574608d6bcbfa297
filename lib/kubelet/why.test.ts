/**
 * Every explanation id lib/kubelet can emit (the WHY table) exists in both catalogues
 * (messages/en/why.json, messages/zh-CN/why.json) with exactly the declared parameters, and
 * renders with use-intl's createTranslator without an error or a stray brace.
 */
import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import en from '../../messages/en/why.json';
import zh from '../../messages/zh-CN/why.json';
import { WHY, type WhyId } from './why';

type Kind = 'plain' | 'number' | 'select';

/** The arguments of an ICU message: name → how it is used (plural/number → number). */
function icuArguments(message: string): Map<string, Kind> {
  const out = new Map<string, Kind>();
  const note = (name: string, kind: Kind) => {
    const had = out.get(name);
    if (had !== 'number' && had !== 'select') out.set(name, kind);
  };
  const matching = (s: string, open: number): number => {
    let depth = 0;
    for (let i = open; i < s.length; i++) {
      if (s[i] === '{') depth++;
      else if (s[i] === '}' && --depth === 0) return i;
    }
    throw new Error(`unbalanced braces in ${JSON.stringify(s)}`);
  };
  const walk = (s: string): void => {
    let i = 0;
    while (i < s.length) {
      if (s[i] !== '{') {
        i++;
        continue;
      }
      const end = matching(s, i);
      const body = s.slice(i + 1, end);
      const comma = body.indexOf(',');
      if (comma < 0) {
        note(body.trim(), 'plain');
      } else {
        const name = body.slice(0, comma).trim();
        const rest = body.slice(comma + 1);
        const comma2 = rest.indexOf(',');
        const type = (comma2 < 0 ? rest : rest.slice(0, comma2)).trim();
        note(
          name,
          type === 'plural' || type === 'selectordinal' || type === 'number'
            ? 'number'
            : type === 'select'
              ? 'select'
              : 'plain',
        );
        if (comma2 >= 0 && (type === 'plural' || type === 'select' || type === 'selectordinal')) {
          const cases = rest.slice(comma2 + 1);
          let j = 0;
          while (j < cases.length) {
            if (cases[j] === '{') {
              const close = matching(cases, j);
              walk(cases.slice(j + 1, close));
              j = close + 1;
            } else j++;
          }
        }
      }
      i = end + 1;
    }
  };
  walk(message);
  return out;
}

function lookup(catalogue: unknown, id: string): unknown {
  return id
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined,
      catalogue,
    );
}

function leafIds(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) =>
    leafIds(v, prefix ? `${prefix}.${k}` : k),
  );
}

const ARRAY_PARAMS = new Set(['names', 'unknown', 'unready', 'incomplete', 'gates']);
const catalogues = { en, 'zh-CN': zh } as const;
const ids = Object.keys(WHY) as WhyId[];

describe('why catalogues', () => {
  for (const [locale, catalogue] of Object.entries(catalogues)) {
    describe(locale, () => {
      it('has no ids in lib/kubelet’s namespaces that the code cannot emit', () => {
        // Other namespaces (drift.*) belong to other modules and are checked there.
        const mine = new Set(Object.keys(WHY).map((id) => id.split('.')[0]));
        const extra = leafIds(catalogue).filter((id) => mine.has(id.split('.')[0]) && !(id in WHY));
        expect(extra).toEqual([]);
      });
      for (const id of ids) {
        it(`${id} exists with parameters [${WHY[id].join(', ')}] and renders`, () => {
          const message = lookup(catalogue, id);
          expect(typeof message).toBe('string');
          const args = icuArguments(message as string);
          expect([...args.keys()].sort()).toEqual([...WHY[id]].sort());
          // Render as lib/i18n does: lists are joined the locale's way.
          const list = new Intl.ListFormat(locale, { style: 'short', type: 'conjunction' });
          const values: Record<string, string | number> = {};
          for (const [name, kind] of args) {
            if (kind === 'number') values[name] = 2;
            else if (ARRAY_PARAMS.has(name)) values[name] = list.format(['a', 'b']);
            else values[name] = `<${name}>`;
          }
          const errors: string[] = [];
          const t = createTranslator({
            locale,
            messages: { why: catalogue },
            onError: (e) => errors.push(e.message),
          });
          const text = (
            t as unknown as (key: string, v: Record<string, string | number>) => string
          )(`why.${id}`, values);
          expect(errors).toEqual([]);
          expect(text).not.toMatch(/[{}]/);
          expect(text).not.toContain('undefined');
          for (const name of args.keys())
            if (args.get(name) === 'plain') expect(text).toContain(String(values[name]));
        });
      }
    });
  }

  it('the argument reader understands plural branches', () => {
    const args = icuArguments('{a} {n, plural, =0 {} one {# {b}} other {{c}}}');
    expect([...args]).toEqual([
      ['a', 'plain'],
      ['n', 'number'],
      ['b', 'plain'],
      ['c', 'plain'],
    ]);
  });
});
