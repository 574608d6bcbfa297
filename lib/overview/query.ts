/**
 * The search language (docs/overview.md): space-separated terms, all of which must hold; the
 * same key given twice means either value (`ns:a ns:b`).
 *
 *   ns:shop               namespace (exact; `*` matches any run: `ns:team-*`)
 *   node:worker-7         node name (exact, `*` as above)
 *   pod:web               pod name substring (case-insensitive); a bare word means the same
 *   label:app=web         a pod label, or a label of its node (`label:app` : the key is present)
 *   phase:Pending         pod phase (case-insensitive)
 *   state:waiting         a container in this state (waiting, running, terminated)
 *   reason:CrashLoopBackOff  the pod's or a container's reason (case-insensitive)
 *   ready:true|false      the pod's Ready condition
 *   health:failing        POD_HEALTH (empty, ok, pending, warning, failing)
 *   nodeready:Unknown     the node's Ready status (True, False, Unknown)
 *   change:ID             the members of a change group (ChangeGroup.query)
 *
 * Values may be quoted ("a b", with \" and \\ inside). Parsing never throws: a query that does
 * not parse gives `{ error: { message, at } }`, `at` the offending character's offset. Values
 * are compared as plain strings; nothing in a query is evaluated.
 */
import { POD_HEALTH } from './wire';

export const QUERY_KEYS = [
  'ns',
  'node',
  'pod',
  'label',
  'phase',
  'state',
  'reason',
  'ready',
  'health',
  'nodeready',
  'change',
] as const;
export type QueryKey = (typeof QUERY_KEYS)[number];

/** Longest query accepted (characters). */
export const MAX_QUERY_LENGTH = 1_000;
/** Most terms in one query. */
export const MAX_TERMS = 32;

export interface Term {
  key: QueryKey;
  value: string;
  /** Offset of the term's first character. */
  at: number;
}

export interface Query {
  /** Terms by key (each key's values are alternatives). */
  terms: Term[];
  /** True when the terms are about nodes alone (node:, nodeready:, change: of nodes): hits are nodes. */
  nodeOnly: boolean;
}

export type Parsed =
  { query: Query; error?: undefined } | { error: { message: string; at: number } };

const CONTAINER_STATES = ['waiting', 'running', 'terminated'];
const NODE_READY = ['true', 'false', 'unknown'];

const fail = (message: string, at: number): Parsed => ({ error: { message, at } });

export function parseQuery(text: unknown): Parsed {
  if (typeof text !== 'string') return fail('the query must be text', 0);
  if (text.length > MAX_QUERY_LENGTH)
    return fail(`the query is longer than ${MAX_QUERY_LENGTH} characters`, MAX_QUERY_LENGTH);
  const terms: Term[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    if (terms.length >= MAX_TERMS) return fail(`more than ${MAX_TERMS} terms`, start);
    let key: string | undefined;
    // A key is letters up to a colon; anything else is a bare word.
    let j = i;
    while (j < n && /[a-z]/i.test(text[j] ?? '')) j++;
    if (j > i && text[j] === ':') {
      key = text.slice(i, j).toLowerCase();
      if (!(QUERY_KEYS as readonly string[]).includes(key))
        return fail(`unknown key "${text.slice(i, j)}" (known: ${QUERY_KEYS.join(', ')})`, start);
      i = j + 1;
    }
    const read = readValue(text, i);
    if ('error' in read) return read;
    i = read.end;
    const value = read.value;
    const k = (key ?? 'pod') as QueryKey;
    if (value === '' && key) return fail(`"${key}:" needs a value`, start);
    if (value === '') continue;
    const bad = check(k, value);
    if (bad) return fail(bad, start);
    terms.push({ key: k, value, at: start });
  }
  const nodeOnly =
    terms.length > 0 && terms.every((t) => t.key === 'node' || t.key === 'nodeready');
  return { query: { terms, nodeOnly } };
}

function readValue(
  text: string,
  from: number,
): { value: string; end: number } | { error: { message: string; at: number } } {
  let i = from;
  if (text[i] === '"') {
    let value = '';
    i++;
    for (;;) {
      if (i >= text.length) return { error: { message: 'unclosed quote', at: from } };
      const c = text[i];
      if (c === '\\' && i + 1 < text.length) {
        value += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') {
        i++;
        break;
      }
      value += c;
      i++;
    }
    if (i < text.length && !isSpace(text.charCodeAt(i)))
      return { error: { message: 'a space must follow a closing quote', at: i } };
    return { value, end: i };
  }
  while (i < text.length && !isSpace(text.charCodeAt(i))) {
    if (text[i] === '"') return { error: { message: 'a quote inside a word', at: i } };
    i++;
  }
  return { value: text.slice(from, i), end: i };
}

function check(key: QueryKey, value: string): string | undefined {
  const lower = value.toLowerCase();
  switch (key) {
    case 'state':
      return CONTAINER_STATES.includes(lower)
        ? undefined
        : `state: is one of ${CONTAINER_STATES.join(', ')}`;
    case 'ready':
      return lower === 'true' || lower === 'false' ? undefined : 'ready: is true or false';
    case 'nodeready':
      return NODE_READY.includes(lower) ? undefined : 'nodeready: is True, False or Unknown';
    case 'health':
      return (POD_HEALTH as readonly string[]).includes(lower)
        ? undefined
        : `health: is one of ${POD_HEALTH.join(', ')}`;
    case 'label':
      return value.startsWith('=') ? 'label: needs a key before "="' : undefined;
    case 'ns':
    case 'node':
    case 'pod':
    case 'phase':
    case 'reason':
    case 'change':
      return undefined;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0x3000 || c === 0xa0;
}

/** Whether `text` matches `pattern`, where `*` matches any run of characters (no other syntax). */
export function globMatch(pattern: string, text: string): boolean {
  if (!pattern.includes('*')) return pattern === text;
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let at = first.length;
  for (let p = 1; p < parts.length - 1; p++) {
    const part = parts[p] ?? '';
    const found = text.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

/** Quotes a value for a query when it needs it (spaces, quotes). */
export function quoteValue(value: string): string {
  return /^[^\s"]+$/.test(value) ? value : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
