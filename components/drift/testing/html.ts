/**
 * Just enough of a DOM to test server-rendered markup without a browser or jsdom: parses the
 * well-formed HTML that react-dom/server writes and answers simple CSS selectors (tag, .class,
 * [attr], [attr="value"], joined by the descendant combinator). Test-only.
 */
const VOID = new Set(['area', 'br', 'col', 'hr', 'img', 'input', 'link', 'meta', 'source', 'wbr']);
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
  nbsp: '\u00a0',
};
const decode = (s: string) =>
  s.replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '');

export interface El {
  tag: string;
  attrs: Record<string, string>;
  children: (El | string)[];
  parent?: El;
  getAttribute(name: string): string | null;
  readonly textContent: string;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): El[];
}

function element(tag: string, attrs: Record<string, string>, parent?: El): El {
  const el: El = {
    tag,
    attrs,
    children: [],
    ...(parent ? { parent } : {}),
    getAttribute: (name) => attrs[name] ?? null,
    get textContent(): string {
      return el.children.map((c) => (typeof c === 'string' ? c : c.textContent)).join('');
    },
    querySelector: (s) => select(el, s)[0] ?? null,
    querySelectorAll: (s) => select(el, s),
  };
  return el;
}

export function parseHtml(html: string): El & { html: string } {
  const root = element('#root', {});
  let current = root;
  const re =
    /<\/([a-zA-Z0-9]+)\s*>|<([a-zA-Z0-9]+)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  for (const m of html.matchAll(re)) {
    const [, close, open, rawAttrs, selfClose, text] = m;
    if (text !== undefined) current.children.push(decode(text));
    else if (close) current = current.parent ?? root;
    else if (open) {
      const attrs: Record<string, string> = {};
      for (const a of (rawAttrs ?? '').matchAll(/([^\s=]+)(?:="([^"]*)")?/g))
        attrs[a[1] ?? ''] = decode(a[2] ?? '');
      const el = element(open.toLowerCase(), attrs, current);
      current.children.push(el);
      if (!selfClose && !VOID.has(el.tag)) current = el;
    }
  }
  return Object.assign(root, { html });
}

interface Compound {
  tag?: string;
  classes: string[];
  attrs: { name: string; value?: string }[];
}

function parseCompound(s: string): Compound {
  const c: Compound = { classes: [], attrs: [] };
  for (const m of s.matchAll(/^([a-z0-9]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/gi)) {
    if (m[1]) c.tag = m[1].toLowerCase();
    else if (m[2]) c.classes.push(m[2]);
    else if (m[3]) c.attrs.push({ name: m[3], ...(m[4] !== undefined ? { value: m[4] } : {}) });
  }
  return c;
}

function matches(el: El, c: Compound): boolean {
  if (c.tag && el.tag !== c.tag) return false;
  const classes = (el.attrs.class ?? '').split(/\s+/);
  if (!c.classes.every((k) => classes.includes(k))) return false;
  return c.attrs.every(
    (a) => a.name in el.attrs && (a.value === undefined || el.attrs[a.name] === a.value),
  );
}

function descendants(el: El): El[] {
  const out: El[] = [];
  for (const c of el.children) if (typeof c !== 'string') out.push(c, ...descendants(c));
  return out;
}

function select(scope: El, selector: string): El[] {
  const parts = selector
    .trim()
    .split(/\s+(?![^[]*\])/)
    .map(parseCompound);
  let found = [scope];
  for (const part of parts) {
    const next = new Set<El>();
    for (const s of found) for (const d of descendants(s)) if (matches(d, part)) next.add(d);
    found = [...next];
  }
  return found;
}
