/**
 * Two guards for the console's languages:
 * 1. every message key exists in every locale, with the same ICU arguments (all namespaces in
 *    messages/, not only the console's);
 * 2. no component renders a literal user-facing string: JSX text and text-bearing attributes
 *    (title, aria-label, alt, placeholder …) must come from t(…), except symbols, Kubernetes
 *    terms and key names, which read the same in every language.
 */
/// <reference types="vite/client" />
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Vite reads the files for us (no Node built-ins in client folders): path → contents.
const catalogueFiles = import.meta.glob<string>('/messages/*/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const sourceFiles = import.meta.glob<string>(
  ['/components/**/*.tsx', '/app/\\[locale\\]/**/*.tsx', '!**/*.test.tsx'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

type Json = string | { [k: string]: Json };

function flatten(obj: Json, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof obj === 'string') {
    out.set(prefix, obj);
    return out;
  }
  for (const [k, v] of Object.entries(obj))
    for (const [kk, vv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  return out;
}

/** The argument names of an ICU message (nested plural/select branches included). */
export function icuArguments(message: string): string[] {
  const names = new Set<string>();
  let i = 0;
  const parseMessage = (stopAtBrace: boolean): void => {
    while (i < message.length) {
      const c = message[i];
      if (c === "'" && message[i + 1] === "'") i += 2;
      else if (c === '{') {
        i++;
        parseArgument();
      } else if (c === '}' && stopAtBrace) return;
      else i++;
    }
  };
  const parseArgument = (): void => {
    const m = /^\s*([^\s,{}]+)\s*/.exec(message.slice(i));
    if (!m) throw new Error(`bad ICU argument in: ${message}`);
    names.add(m[1] ?? '');
    i += m[0].length;
    if (message[i] === '}') {
      i++;
      return;
    }
    // ", type" then optionally ", style" or ", key {message} key {message} …"
    const typeMatch = /^,\s*(\w+)\s*/.exec(message.slice(i));
    if (!typeMatch) throw new Error(`bad ICU type in: ${message}`);
    i += typeMatch[0].length;
    const type = typeMatch[1];
    if (message[i] === '}') {
      i++;
      return;
    }
    if (message[i] === ',') i++;
    if (type === 'plural' || type === 'select' || type === 'selectordinal') {
      while (i < message.length && message[i] !== '}') {
        if (message[i] === '{') {
          i++;
          parseMessage(true);
          i++; // the branch's closing brace
        } else i++;
      }
      i++;
    } else {
      while (i < message.length && message[i] !== '}') i++;
      i++;
    }
  };
  parseMessage(false);
  return [...names].sort();
}

/** `/messages/<locale>/<namespace>.json` → parsed, by locale and namespace. */
const catalogues = new Map<string, Map<string, Json>>();
for (const [path, text] of Object.entries(catalogueFiles)) {
  const [, , locale = '', file = ''] = path.split('/');
  const byNs = catalogues.get(locale) ?? new Map<string, Json>();
  byNs.set(file, JSON.parse(text) as Json);
  catalogues.set(locale, byNs);
}

describe('message catalogues', () => {
  const locales = [...catalogues.keys()];
  const namespaces = [...new Set([...catalogues.values()].flatMap((m) => [...m.keys()]))];

  it('parses ICU arguments, nested ones too, and not branch text', () => {
    expect(icuArguments('{ready, select, true {Ready} other {not {state}}}')).toEqual([
      'ready',
      'state',
    ]);
    expect(icuArguments('{count, plural, one {# pod} other {# pods}} on {node}')).toEqual([
      'count',
      'node',
    ]);
    expect(icuArguments('{speed, number}×')).toEqual(['speed']);
    expect(icuArguments('plain')).toEqual([]);
  });

  it('covers both languages', () => {
    expect(locales.sort()).toEqual(['en', 'zh-CN']);
  });

  for (const ns of namespaces) {
    it(`${ns}: same keys and arguments in every locale`, () => {
      const flat = locales.map((l) => ({ l, m: flatten(catalogues.get(l)?.get(ns) ?? {}) }));
      const [first, ...rest] = flat;
      if (!first) return;
      for (const other of rest) {
        const missing = [...first.m.keys()].filter((k) => !other.m.has(k));
        const extra = [...other.m.keys()].filter((k) => !first.m.has(k));
        expect(missing, `${ns}: in ${first.l}, missing in ${other.l}`).toEqual([]);
        expect(extra, `${ns}: in ${other.l}, missing in ${first.l}`).toEqual([]);
        for (const [k, v] of first.m) {
          const w = other.m.get(k);
          if (w === undefined) continue;
          expect(
            icuArguments(w),
            `${ns} ${k}: arguments differ between ${first.l} and ${other.l}`,
          ).toEqual(icuArguments(v));
        }
      }
    });
  }
});

/** Strings that read the same in every language: Kubernetes terms and key names. */
const ALLOWED = new Set(['Tab', 'Enter', 'Esc', 'Space', 'Home', 'End', 'Ready', 'CRI']);
const TEXT_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'alt',
  'placeholder',
  'label',
]);
const hasWords = (s: string) => /\p{L}{2,}/u.test(s) && !ALLOWED.has(s.trim());

export function literalStrings(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (n: ts.Node) =>
    `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const literal = (n: ts.Node | undefined): string | undefined =>
    n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isJsxText(n) && hasWords(n.text)) found.push(`${where(n)} text "${n.text.trim()}"`);
    if (
      ts.isJsxExpression(n) &&
      n.parent &&
      (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent))
    ) {
      const s = literal(n.expression);
      if (s !== undefined && hasWords(s)) found.push(`${where(n)} text "${s}"`);
    }
    if (ts.isJsxAttribute(n) && TEXT_ATTRIBUTES.has(n.name.getText(sf))) {
      const init = n.initializer;
      const s = init && ts.isJsxExpression(init) ? literal(init.expression) : literal(init);
      if (s !== undefined && hasWords(s)) found.push(`${where(n)} ${n.name.getText(sf)}="${s}"`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('components speak through the catalogues', () => {
  it('finds literal strings when there are some (the check can fail)', () => {
    const bad = literalStrings(
      'x.tsx',
      'const a = <p title="Hello there">Some words <b>{"More words"}</b><kbd>Tab</kbd> ×</p>;',
    );
    expect(bad).toHaveLength(3);
  });

  it('no component renders a literal user-facing string', () => {
    const files = Object.entries(sourceFiles);
    expect(files.length).toBeGreaterThan(20);
    expect(files.some(([f]) => f.startsWith('/app/'))).toBe(true);
    const bad = files.flatMap(([f, text]) => literalStrings(f, text));
    expect(bad).toEqual([]);
  });
});

describe('every message a component asks for exists', () => {
  it('t("…") keys resolve in the English catalogues', () => {
    // Every namespace: messages/en/<ns>.json is the `<ns>` namespace.
    const en: Json = Object.fromEntries(
      [...(catalogues.get('en') ?? new Map<string, Json>())].map(([file, json]) => [
        file.replace(/\.json$/, ''),
        json,
      ]),
    );
    const has = (path: string) => {
      let node: Json | undefined = en;
      for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
      return typeof node === 'string';
    };
    const missing: string[] = [];
    for (const [file, text] of Object.entries(sourceFiles)) {
      const namespaces = [...text.matchAll(/useTranslations\('([\w.]+)'\)/g)].map((m) => m[1]);
      if (namespaces.length !== 1) continue;
      for (const m of text.matchAll(/\bt\('([\w.]+)'/g)) {
        const key = `${namespaces[0]}.${m[1]}`;
        if (!has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
