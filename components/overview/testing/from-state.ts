/**
 * The overview of an in-memory ClusterState, as the server's index would send it: cells,
 * aggregates, attention and a search over the state. For the console's offline sources and the
 * overview's tests; the server's own rules (lib/overview, server/overview) are the reference.
 */
import { FAILING_WAITING_REASONS, podContainers } from '@/components/data/entity';
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import {
  GROUP_LABELS,
  POD_HEALTH,
  PRESSURE_BITS,
  SEARCH_PAGE,
  TOP_ATTENTION,
  type Aggregates,
  type AttentionItem,
  type OverviewCells,
  type OverviewMessage,
  type PodHealth,
  type ReadyValue,
  type SearchHit,
  type SearchResult,
} from '@/lib/overview/wire';

export function podHealth(p: PodView): PodHealth {
  const phase = p.status.phase;
  if (phase === 'Failed') return 'failing';
  for (const c of podContainers(p)) {
    const reason = c.status?.state?.waiting?.reason;
    if (reason && FAILING_WAITING_REASONS.has(reason)) return 'failing';
  }
  if (phase === 'Pending') return 'pending';
  if (phase === 'Succeeded') return 'ok';
  const ready = p.status.conditions?.find((c) => c.type === 'Ready')?.status;
  return ready === 'True' ? 'ok' : 'warning';
}

function podReason(p: PodView): string | undefined {
  for (const c of podContainers(p)) {
    const r = c.status?.state?.waiting?.reason ?? c.status?.state?.terminated?.reason;
    if (r && r !== 'Completed') return r;
  }
  return p.status.reason ?? undefined;
}

const readyOf = (n: NodeView): ReadyValue =>
  (n.conditions.find((c) => c.type === 'Ready')?.status as ReadyValue | undefined) ?? '';

const rank = (h: PodHealth) => POD_HEALTH.indexOf(h);

export function cellsOf(state: ClusterState, names?: string[]): OverviewCells {
  const order = names ?? Object.keys(state.nodes).sort();
  const cells: OverviewCells = {
    names: order,
    ready: [],
    health: [],
    pressure: [],
    pods: [],
    notReady: [],
    labels: {},
  };
  for (const key of GROUP_LABELS) {
    const values: string[] = [];
    const of: number[] = [];
    let any = false;
    for (const name of order) {
      const v = state.nodes[name]?.labels?.[key];
      if (v === undefined) {
        of.push(-1);
        continue;
      }
      any = true;
      let at = values.indexOf(v);
      if (at < 0) at = values.push(v) - 1;
      of.push(at);
    }
    if (any) cells.labels[key] = { values, of };
  }
  order.forEach((name, i) => {
    const n = state.nodes[name];
    if (!n) {
      cells.gone ??= new Array<number>(order.length).fill(0);
      cells.gone[i] = 1;
      cells.ready.push('');
      cells.health.push(0);
      cells.pressure.push(0);
      cells.pods.push(0);
      cells.notReady.push(0);
      return;
    }
    let worst = 0;
    let notReady = 0;
    const pods = Object.values(n.pods);
    for (const p of pods) {
      const h = podHealth(p);
      worst = Math.max(worst, rank(h));
      if (
        (p.status.phase === 'Running' || p.status.phase === 'Pending') &&
        p.status.conditions?.find((c) => c.type === 'Ready')?.status !== 'True'
      )
        notReady++;
    }
    let pressure = 0;
    for (const c of n.conditions)
      if (c.status === 'True' && c.type in PRESSURE_BITS)
        pressure |= PRESSURE_BITS[c.type as keyof typeof PRESSURE_BITS];
    cells.ready.push(readyOf(n));
    cells.health.push(worst);
    cells.pressure.push(pressure);
    cells.pods.push(pods.length);
    cells.notReady.push(notReady);
  });
  return cells;
}

export function aggregatesOf(state: ClusterState, groupKey?: string): Aggregates {
  const a: Aggregates = {
    nodes: 0,
    pods: 0,
    containers: 0,
    nodesByReady: { True: 0, False: 0, Unknown: 0, '': 0 },
    podsByHealth: { empty: 0, ok: 0, pending: 0, warning: 0, failing: 0 },
    podsByPhase: {},
    reasons: [],
    namespaces: [],
    groups: [],
  };
  const reasons = new Map<string, { pods: number; nodes: Set<string>; ns: Set<string> }>();
  const ns = new Map<string, Aggregates['namespaces'][number]>();
  const groups = new Map<string, Aggregates['groups'][number]>();
  for (const n of Object.values(state.nodes)) {
    a.nodes++;
    const ready = readyOf(n);
    a.nodesByReady[ready]++;
    const gv = groupKey ? n.labels?.[groupKey] : undefined;
    let g = groupKey && gv !== undefined ? groups.get(gv) : undefined;
    if (groupKey && gv !== undefined && !g) {
      g = {
        key: groupKey,
        value: gv,
        nodes: 0,
        nodesByReady: { True: 0, False: 0, Unknown: 0, '': 0 },
        podsByHealth: { empty: 0, ok: 0, pending: 0, warning: 0, failing: 0 },
      };
      groups.set(gv, g);
    }
    if (g) {
      g.nodes++;
      g.nodesByReady[ready]++;
    }
    for (const p of Object.values(n.pods)) {
      a.pods++;
      a.containers += podContainers(p).length;
      const h = podHealth(p);
      a.podsByHealth[h]++;
      if (g) g.podsByHealth[h]++;
      const phase = p.status.phase ?? 'Unknown';
      a.podsByPhase[phase] = (a.podsByPhase[phase] ?? 0) + 1;
      const r = podReason(p);
      if (r && h !== 'ok') {
        const e = reasons.get(r) ?? { pods: 0, nodes: new Set<string>(), ns: new Set<string>() };
        e.pods++;
        e.nodes.add(n.name);
        e.ns.add(p.namespace);
        reasons.set(r, e);
      }
      const s = ns.get(p.namespace) ?? {
        namespace: p.namespace,
        pods: 0,
        failing: 0,
        warning: 0,
        pending: 0,
      };
      s.pods++;
      if (h === 'failing' || h === 'warning' || h === 'pending') s[h]++;
      ns.set(p.namespace, s);
    }
  }
  a.reasons = [...reasons]
    .map(([reason, e]) => ({ reason, pods: e.pods, nodes: e.nodes.size, namespaces: e.ns.size }))
    .sort((x, y) => y.pods - x.pods)
    .slice(0, 20);
  a.namespaces = [...ns.values()]
    .sort((x, y) => y.failing - x.failing || y.warning - x.warning || y.pending - x.pending)
    .slice(0, 20);
  a.groups = [...groups.values()];
  return a;
}

export function attentionOf(state: ClusterState): { total: number; items: AttentionItem[] } {
  const items: AttentionItem[] = [];
  for (const n of Object.values(state.nodes)) {
    const ready = readyOf(n);
    if (ready !== 'True')
      items.push({
        kind: 'node',
        node: n.name,
        reason: ready === 'False' ? 'NodeNotReady' : 'NodeStatusUnknown',
        health: ready === 'False' ? 'failing' : 'warning',
      });
    for (const p of Object.values(n.pods)) {
      const h = podHealth(p);
      if (h !== 'failing' && h !== 'warning') continue;
      items.push({
        kind: 'pod',
        node: n.name,
        namespace: p.namespace,
        pod: p.name,
        uid: p.uid,
        reason: podReason(p) ?? (h === 'warning' ? 'NotReady' : 'Failed'),
        health: h,
        since: p.createdAt,
      });
    }
  }
  items.sort((x, y) => rank(y.health) - rank(x.health) || (x.since ?? 0) - (y.since ?? 0));
  return { total: items.length, items: items.slice(0, TOP_ATTENTION) };
}

export function overviewOf(state: ClusterState, groupKey?: string): OverviewMessage {
  return {
    type: 'overview',
    seq: state.seq,
    t: state.t,
    cells: cellsOf(state),
    aggregates: aggregatesOf(state, groupKey),
    attention: attentionOf(state),
    changes: [],
  };
}

interface Term {
  key: string;
  value: string;
}

const KEYS = new Set([
  'ns',
  'node',
  'pod',
  'label',
  'phase',
  'state',
  'reason',
  'ready',
  'nodeready',
]);

/** The query language of docs/overview.md, for in-memory searches. */
export function parseQuery(q: string): Term[] | { message: string; at: number } {
  const terms: Term[] = [];
  const re = /\S+/g;
  for (let m = re.exec(q); m; m = re.exec(q)) {
    const word = m[0];
    const colon = word.indexOf(':');
    if (colon < 0) {
      terms.push({ key: 'pod', value: word });
      continue;
    }
    const key = word.slice(0, colon).toLowerCase();
    const value = word.slice(colon + 1);
    if (!KEYS.has(key))
      return {
        message: `unknown filter "${key}:" (try ns:, node:, pod:, label:, phase:, state:, reason:, ready:, nodeready:)`,
        at: m.index,
      };
    if (!value) return { message: `"${key}:" needs a value`, at: m.index + colon + 1 };
    if (key === 'label' && !value.includes('='))
      return { message: 'label: needs key=value', at: m.index + colon + 1 };
    terms.push({ key, value });
  }
  return terms;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();

function podMatches(n: NodeView, p: PodView, t: Term): boolean {
  switch (t.key) {
    case 'ns':
      return p.namespace === t.value;
    case 'node':
      return n.name === t.value || n.name.includes(t.value);
    case 'pod':
      return lower(p.name).includes(lower(t.value));
    case 'label': {
      const [k, v] = t.value.split('=');
      return (p.labels?.[k ?? ''] ?? n.labels?.[k ?? '']) === v;
    }
    case 'phase':
      return lower(p.status.phase) === lower(t.value);
    case 'state':
      return podContainers(p).some(
        (c) => lower(Object.keys(c.status?.state ?? {})[0]) === lower(t.value),
      );
    case 'reason':
      return (
        podContainers(p).some(
          (c) =>
            lower(c.status?.state?.waiting?.reason ?? c.status?.state?.terminated?.reason) ===
            lower(t.value),
        ) || lower(p.status.reason) === lower(t.value)
      );
    case 'ready':
      return lower(p.status.conditions?.find((c) => c.type === 'Ready')?.status) === lower(t.value);
    case 'nodeready':
      return lower(readyOf(n)) === lower(t.value);
    default:
      return false;
  }
}

/** A page of a search over a state, ranked worst first; `cursor` is the offset as a string. */
export function searchState(
  state: ClusterState,
  cells: OverviewCells,
  q: string,
  cursor?: string,
  limit = SEARCH_PAGE,
): SearchResult {
  const parsed = parseQuery(q);
  if (!Array.isArray(parsed)) return { query: q, error: parsed, total: 0, hits: [], cells: [] };
  const index = new Map(cells.names.map((n, i) => [n, i]));
  const nodeOnly =
    parsed.length > 0 && parsed.every((t) => t.key === 'node' || t.key === 'nodeready');
  const hits: SearchHit[] = [];
  for (const n of Object.values(state.nodes)) {
    const cell = index.get(n.name) ?? -1;
    if (nodeOnly) {
      if (
        parsed.every((t) =>
          t.key === 'ready' ? podMatches(n, {} as PodView, t) : n.name.includes(t.value),
        )
      )
        hits.push({
          kind: 'node',
          node: n.name,
          cell,
          health: POD_HEALTH[cells.health[cell] ?? 0] ?? 'empty',
        });
      continue;
    }
    for (const p of Object.values(n.pods)) {
      if (!parsed.every((t) => podMatches(n, p, t))) continue;
      const reason = podReason(p);
      hits.push({
        kind: 'pod',
        node: n.name,
        cell,
        namespace: p.namespace,
        pod: p.name,
        uid: p.uid,
        ...(p.status.phase ? { phase: p.status.phase } : {}),
        ...(reason ? { reason } : {}),
        health: podHealth(p),
      });
    }
  }
  hits.sort(
    (a, b) =>
      rank(b.health) - rank(a.health) ||
      a.node.localeCompare(b.node) ||
      (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
      (a.pod ?? '').localeCompare(b.pod ?? ''),
  );
  const from = Number(cursor ?? 0) || 0;
  const page = hits.slice(from, from + limit);
  const result: SearchResult = {
    query: q,
    total: hits.length,
    hits: page,
    cells: [...new Set(hits.map((h) => h.cell))].sort((a, b) => a - b),
  };
  if (from + limit < hits.length) result.next = String(from + limit);
  return result;
}
