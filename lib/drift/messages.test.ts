/**
 * Every drift explanation exists in every locale with the same parameters, and every one the
 * detector produces renders to a full sentence (no raw id, no unfilled placeholder).
 */
import { describe, expect, it } from 'vitest';
import en from '../../messages/en/why.json';
import zh from '../../messages/zh-CN/why.json';
import { formatExplanation } from '../i18n/format';
import { LOCALES } from '../i18n/locales';
import { cases } from './testing/cases';
import { detectClusterDrift } from './detect';
import type { Drift } from './types';

type Tree = { [k: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const id = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(id, v);
    else for (const [kk, vv] of leaves(v, id)) out.set(kk, vv);
  }
  return out;
}

/** Top-level argument names of an ICU message ({name}, {name, plural, …}). */
function argumentsOf(message: string): string[] {
  return [...new Set([...message.matchAll(/\{(\w+)(?:,|\})/g)].map((m) => m[1] ?? ''))].sort();
}

const enDrift = leaves((en as unknown as { drift: Tree }).drift, 'drift');
const zhDrift = leaves((zh as unknown as { drift: Tree }).drift, 'drift');

function producedDrifts(): Drift[] {
  return cases.flatMap((c) => {
    const r = detectClusterDrift({ api: c.api, nodes: c.nodes, now: c.now, options: c.options });
    return [...Object.values(r.pods).flat(), ...Object.values(r.nodes).flat()];
  });
}

describe('drift messages', () => {
  it('has the same ids and parameters in every locale', () => {
    expect([...zhDrift.keys()].sort()).toEqual([...enDrift.keys()].sort());
    for (const [id, message] of enDrift)
      expect(argumentsOf(zhDrift.get(id) ?? ''), id).toEqual(argumentsOf(message));
  });

  it('uses every catalogue message, and has a message for every id it uses', () => {
    const used = new Set(producedDrifts().map((d) => d.why.id));
    expect([...used].sort()).toEqual([...enDrift.keys()].sort());
  });

  it.each(LOCALES)('renders every produced explanation in %s with all its parameters', (locale) => {
    for (const d of producedDrifts()) {
      const text = formatExplanation(d.why, locale);
      expect(text, d.why.id).not.toContain('{');
      expect(text, d.why.id).not.toBe(`why.${d.why.id}`);
      const params = argumentsOf((locale === 'en' ? enDrift : zhDrift).get(d.why.id) ?? '');
      for (const p of params) expect(d.why.params, `${d.why.id} needs ${p}`).toHaveProperty(p);
    }
  });
});
