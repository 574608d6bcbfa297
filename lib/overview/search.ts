/**
 * A search over the overview's flat rows: match a parsed query (query.ts), rank the hits worst
 * health first (then node, namespace, name), and cut one page after a cursor. The cursor is the
 * rank key of the page's last hit, so the next page starts after it even when the cluster
 * changed meanwhile (no hit is shown twice, none skipped that stood still). Pure.
 */
import { TopK } from './aggregates';
import { HEALTH, healthName, STATE_BITS, type NodeFacts, type PodRow } from './cells';
import { globMatch, parseQuery, type Query, type QueryKey, type Term } from './query';
import { SEARCH_PAGE, type SearchHit, type SearchResult } from './wire';

/** One node as the search sees it: its cell index, its facts, its (visible) rows. */
export interface SearchNode {
  cell: number;
  facts: NodeFacts;
  rows: readonly PodRow[];
}

/** A change group's members as a search selects them (`change:ID`). */
export interface ChangeMembers {
  kind: 'node' | 'pod';
  /** Node names, or pod keys "namespace/name". */
  members: ReadonlySet<string>;
}

export interface SearchOptions {
  cursor?: string | undefined;
  /** Hits per page (SEARCH_PAGE). */
  page?: number;
  /** Resolves `change:ID`; undefined: the group is not held (the query then fails). */
  change?: (id: string) => ChangeMembers | undefined;
}

type Key = [health: number, node: string, namespace: string, name: string, uid: string];

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareKeys = (a: Key, b: Key) =>
  b[0] - a[0] || cmp(a[1], b[1]) || cmp(a[2], b[2]) || cmp(a[3], b[3]) || cmp(a[4], b[4]);

export function encodeCursor(key: Key): string {
  return base64url(JSON.stringify(key));
}

export function decodeCursor(cursor: string): Key | undefined {
  try {
    const v: unknown = JSON.parse(unbase64url(cursor));
    if (
      Array.isArray(v) &&
      v.length === 5 &&
      typeof v[0] === 'number' &&
      v.slice(1).every((s) => typeof s === 'string')
    )
      return v as Key;
  } catch {
    // not a cursor of ours
  }
  return undefined;
}

function base64url(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unbase64url(s: string): string {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** A compiled term group: all keys must hold, any value within a key. */
interface Compiled {
  node: ((f: NodeFacts) => boolean)[];
  pod: ((r: PodRow, f: NodeFacts) => boolean)[];
}

function group(terms: Term[]): Map<QueryKey, string[]> {
  const by = new Map<QueryKey, string[]>();
  for (const t of terms) {
    const list = by.get(t.key);
    if (list) list.push(t.value);
    else by.set(t.key, [t.value]);
  }
  return by;
}

const hasLabel = (labels: Readonly<Record<string, string>> | undefined, k: string, v?: string) =>
  labels !== undefined && Object.hasOwn(labels, k) && (v === undefined || labels[k] === v);

function compile(query: Query, change: ChangeMembers[]): Compiled {
  const node: Compiled['node'] = [];
  const pod: Compiled['pod'] = [];
  for (const [key, values] of group(query.terms)) {
    const lower = values.map((v) => v.toLowerCase());
    switch (key) {
      case 'ns':
        pod.push((r) => values.some((v) => globMatch(v, r.namespace)));
        break;
      case 'node':
        node.push((f) => values.some((v) => globMatch(v, f.name)));
        break;
      case 'pod':
        pod.push((r) => lower.some((v) => r.lname.includes(v)));
        break;
      case 'label': {
        const pairs = values.map((v) => {
          const eq = v.indexOf('=');
          return eq < 0 ? { k: v, v: undefined } : { k: v.slice(0, eq), v: v.slice(eq + 1) };
        });
        pod.push((r, f) =>
          pairs.some((p) => hasLabel(r.labels, p.k, p.v) || hasLabel(f.labels, p.k, p.v)),
        );
        break;
      }
      case 'phase':
        pod.push((r) => lower.includes(r.phase.toLowerCase()));
        break;
      case 'state': {
        const bits = lower.reduce((b, v) => b | (STATE_BITS[v as keyof typeof STATE_BITS] ?? 0), 0);
        pod.push((r) => (r.states & bits) !== 0);
        break;
      }
      case 'reason':
        pod.push((r) => r.reasons.some((x) => lower.includes(x.toLowerCase())));
        break;
      case 'ready': {
        const want = new Set(lower.map((v) => v === 'true'));
        pod.push((r) => want.has(r.ready));
        break;
      }
      case 'health': {
        const want = new Set(lower);
        pod.push((r) => want.has(healthName(r.health)));
        break;
      }
      case 'nodeready':
        node.push((f) => lower.includes(f.ready.toLowerCase()));
        break;
      case 'change': {
        const nodes = change.filter((c) => c.kind === 'node');
        const pods = change.filter((c) => c.kind === 'pod');
        if (pods.length === 0) node.push((f) => nodes.some((c) => c.members.has(f.name)));
        else
          pod.push(
            (r, f) =>
              nodes.some((c) => c.members.has(f.name)) ||
              pods.some((c) => c.members.has(`${r.namespace}/${r.name}`)),
          );
        break;
      }
    }
  }
  return { node, pod };
}

/**
 * Answers `text` over `nodes` (in cell order). A query that does not parse, or names a change
 * group not held, answers with `error` and nothing else.
 */
export function search(
  text: string,
  nodes: Iterable<SearchNode>,
  options: SearchOptions = {},
): SearchResult {
  const parsed = parseQuery(text);
  const empty = { query: typeof text === 'string' ? text : '', total: 0, hits: [], cells: [] };
  if (parsed.error) return { ...empty, error: parsed.error };
  const { query } = parsed;
  const changes: ChangeMembers[] = [];
  for (const t of query.terms) {
    if (t.key !== 'change') continue;
    const c = options.change?.(t.value);
    if (!c)
      return {
        ...empty,
        error: { message: `no change group "${t.value}" is held any more`, at: t.at },
      };
    changes.push(c);
  }
  const nodeHits =
    query.nodeOnly || (changes.length > 0 && changes.every((c) => c.kind === 'node'));
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  if (options.cursor && !after)
    return { ...empty, error: { message: 'the page cursor is not valid', at: 0 } };
  const compiled = compile(query, changes);
  const pageSize = Math.max(1, Math.min(options.page ?? SEARCH_PAGE, 1_000));
  const top = new TopK<{ key: Key; hit: SearchHit }>(pageSize + 1, (a, b) =>
    compareKeys(a.key, b.key),
  );
  const cells: number[] = [];
  let total = 0;
  for (const n of nodes) {
    if (!compiled.node.every((p) => p(n.facts))) continue;
    let matched = 0;
    if (nodeHits) {
      let worst: number = HEALTH.empty;
      for (const r of n.rows) if (r.health > worst) worst = r.health;
      // A node not Ready ranks with failing pods.
      const health = n.facts.ready === 'True' ? worst : HEALTH.failing;
      matched = 1;
      const key: Key = [health, n.facts.name, '', '', ''];
      if (!after || compareKeys(key, after) > 0)
        top.offer({
          key,
          hit: {
            kind: 'node',
            node: n.facts.name,
            cell: n.cell,
            health: healthName(health),
            ...(n.facts.reason ? { reason: n.facts.reason } : {}),
          },
        });
    } else {
      for (const r of n.rows) {
        if (!compiled.pod.every((p) => p(r, n.facts))) continue;
        matched++;
        const key: Key = [r.health, n.facts.name, r.namespace, r.name, r.uid];
        if (after && compareKeys(key, after) <= 0) continue;
        top.offer({
          key,
          hit: {
            kind: 'pod',
            node: n.facts.name,
            cell: n.cell,
            namespace: r.namespace,
            pod: r.name,
            uid: r.uid,
            phase: r.phase,
            ...(r.reason ? { reason: r.reason } : {}),
            health: healthName(r.health),
          },
        });
      }
    }
    if (matched > 0) {
      total += matched;
      cells.push(n.cell);
    }
  }
  const ranked = top.sorted();
  const page = ranked.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    query: text,
    total,
    hits: page.map((h) => h.hit),
    ...(ranked.length > pageSize && last ? { next: encodeCursor(last.key) } : {}),
    cells,
  };
}
