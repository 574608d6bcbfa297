/**
 * The browser's copy of the overview: every node as a cell (columnar, as the wire sends it),
 * the aggregates, what needs attention and the change groups. `apply` folds the stream's
 * overview messages in; `version` changes with every fold so a memo can key on it. Pure: no DOM.
 */
import type {
  Aggregates,
  AttentionItem,
  ChangeGroup,
  OverviewCells,
  OverviewDelta,
  OverviewMessage,
} from '@/lib/overview/wire';

export interface OverviewSnapshot {
  readonly version: number;
  readonly seq: number;
  readonly t: number;
  readonly cells: OverviewCells;
  readonly aggregates: Aggregates;
  readonly attention: { total: number; items: AttentionItem[] };
  readonly changes: ChangeGroup[];
  /** Node name → cell index. */
  readonly index: ReadonlyMap<string, number>;
  /** Bumped when the set of nodes or label dictionaries change (the layout depends on them). */
  readonly shape: number;
}

export const emptyCells = (): OverviewCells => ({
  names: [],
  ready: [],
  health: [],
  pressure: [],
  pods: [],
  notReady: [],
  labels: {},
});

export const emptyAggregates = (): Aggregates => ({
  nodes: 0,
  pods: 0,
  containers: 0,
  nodesByReady: { True: 0, False: 0, Unknown: 0, '': 0 },
  podsByHealth: { empty: 0, ok: 0, pending: 0, warning: 0, failing: 0 },
  podsByPhase: {},
  reasons: [],
  namespaces: [],
  groups: [],
});

export function emptyOverview(): OverviewSnapshot {
  return {
    version: 0,
    seq: 0,
    t: 0,
    cells: emptyCells(),
    aggregates: emptyAggregates(),
    attention: { total: 0, items: [] },
    changes: [],
    index: new Map(),
    shape: 0,
  };
}

function indexOf(names: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  names.forEach((n, i) => m.set(n, i));
  return m;
}

/** Nodes the overview shows (gone ones are kept in place, but not counted). */
export function liveNodeCount(cells: OverviewCells): number {
  if (!cells.gone) return cells.names.length;
  let n = 0;
  for (let i = 0; i < cells.names.length; i++) if (!cells.gone[i]) n++;
  return n;
}

/** Pods on the nodes the overview shows. */
export function podCount(cells: OverviewCells): number {
  let n = 0;
  for (let i = 0; i < cells.pods.length; i++) if (!cells.gone?.[i]) n += cells.pods[i] ?? 0;
  return n;
}

/**
 * Folds a message in. An `overview` message replaces everything (the first, or after a gap); a
 * delta changes the cells it names. The cell arrays are copied on write, so a snapshot handed
 * out before stays as it was.
 */
export function applyMessage(
  prev: OverviewSnapshot,
  msg: OverviewMessage | OverviewDelta,
): OverviewSnapshot {
  if (msg.type === 'overview') {
    return {
      version: prev.version + 1,
      seq: msg.seq,
      t: msg.t,
      cells: msg.cells,
      aggregates: msg.aggregates,
      attention: msg.attention,
      changes: msg.changes,
      index: indexOf(msg.cells.names),
      shape: prev.shape + 1,
    };
  }
  const c = msg.cells;
  const old = prev.cells;
  const cells: OverviewCells = {
    names: old.names,
    ready: old.ready.slice(),
    health: old.health.slice(),
    pressure: old.pressure.slice(),
    pods: old.pods.slice(),
    notReady: old.notReady.slice(),
    labels: old.labels,
  };
  if (old.gone) cells.gone = old.gone.slice();
  let shaped = false;
  let index = prev.index;
  let newName = 0;
  for (let j = 0; j < c.index.length; j++) {
    const i = c.index[j] ?? -1;
    if (i < 0) continue;
    if (i >= cells.names.length) {
      // A new node: its name comes with the delta, in the order of the new indices.
      const name = c.names?.[newName++] ?? `#${i}`;
      if (!shaped || index === prev.index) {
        cells.names = cells.names === old.names ? old.names.slice() : cells.names;
        index = index === prev.index ? new Map(prev.index) : index;
      }
      while (cells.names.length < i) cells.names.push('');
      cells.names[i] = name;
      (index as Map<string, number>).set(name, i);
      shaped = true;
    }
    cells.ready[i] = c.ready[j] ?? '';
    cells.health[i] = c.health[j] ?? 0;
    cells.pressure[i] = c.pressure[j] ?? 0;
    cells.pods[i] = c.pods[j] ?? 0;
    cells.notReady[i] = c.notReady[j] ?? 0;
    const gone = c.gone?.[j] ?? 0;
    if (gone || cells.gone) {
      cells.gone ??= new Array<number>(cells.names.length).fill(0);
      if ((cells.gone[i] ?? 0) !== gone) shaped = true;
      cells.gone[i] = gone;
    }
  }
  // Every column as long as the names (new nodes whose values the delta did not give).
  for (const col of [cells.ready, cells.health, cells.pressure, cells.pods, cells.notReady])
    while (col.length < cells.names.length) (col as unknown[]).push(col === cells.ready ? '' : 0);
  if (c.labels) {
    const labels: OverviewCells['labels'] = { ...old.labels };
    for (const [key, change] of Object.entries(c.labels)) {
      const was = labels[key] ?? { values: [], of: [] };
      const of = was.of.slice();
      while (of.length < cells.names.length) of.push(-1);
      c.index.forEach((i, j) => {
        const v = change.of[j];
        if (v !== undefined) of[i] = v;
      });
      labels[key] = { values: [...was.values, ...change.added], of };
    }
    cells.labels = labels;
    shaped = true;
  }
  return {
    version: prev.version + 1,
    seq: msg.seq,
    t: msg.t,
    cells,
    aggregates: msg.aggregates ?? prev.aggregates,
    attention: msg.attention ?? prev.attention,
    changes: msg.changes ?? prev.changes,
    index,
    shape: shaped ? prev.shape + 1 : prev.shape,
  };
}
