/**
 * The overview's index of a running cluster: one cell per node, a flat row per pod, the counts
 * and the change groups (lib/overview), kept current from an EngineApi — the embedded engine or
 * a cluster-mode replica alike.
 *
 * It never folds events itself: the source's state is already folded, immutable and shared
 * structurally (the embedded engine's `snapshot()` is its committed state, a replica's is its
 * view with node contact judged). A batch or a re-judgement only marks the index dirty; a refresh
 * (at most one per REFRESH_MS, or when a search needs it) reads `snapshot()` once and recomputes
 * the nodes whose NodeView object changed — and within them only the pods whose PodView changed.
 * So a change costs what the changed nodes hold, not what the cluster holds.
 *
 * One index per source (`OverviewIndex.of`), shared by every watcher and search on it.
 */
import { attentionOf, rankAttention, Tally, type NodeEntry } from '@/lib/overview/aggregates';
import {
  cellOf,
  LabelDictionary,
  nodeFacts,
  podRow,
  type Cell,
  type NodeFacts,
  type PodRow,
} from '@/lib/overview/cells';
import { ChangeLog, transitions } from '@/lib/overview/changes';
import { search, type SearchNode, type SearchOptions } from '@/lib/overview/search';
import type { Aggregates, AttentionItem, SearchResult } from '@/lib/overview/wire';
import { own, type ClusterState, type NodeView, type PodView } from '@/lib/timeline/state';
import type { EngineApi } from '@/server/engine/api';

/** Longest a change waits before the index reads it (batches coalesce meanwhile). */
export const REFRESH_MS = 50;

export type NamespacePredicate = (namespace: string) => boolean;

/** One node's entry (a cell). */
export interface IndexEntry extends NodeEntry {
  cell: number;
  facts: NodeFacts;
  rows: PodRow[];
  /** The PodView each row was made from (same order as rows). */
  pods: PodView[];
  /** The NodeView the entry was made from (undefined once gone). */
  view: NodeView | undefined;
  value: Cell;
  gone?: boolean;
  /** Per label key of the dictionary: the value's index (absent: none). */
  labelOf: Map<string, number>;
  /** The index revision at which the cell's values last changed. */
  changedAt: number;
  /** The earliest time a row's health changes with no event. */
  until?: number;
  attention: AttentionItem[];
}

export interface OverviewIndexOptions {
  clock?: () => number;
  /** Change groups kept (ChangeLog). */
  keepChanges?: number;
}

const INDEXES = new WeakMap<EngineApi, OverviewIndex>();

export class OverviewIndex {
  readonly entries: IndexEntry[] = [];
  private readonly byName = new Map<string, number>();
  readonly labels = new LabelDictionary();
  readonly tally = new Tally();
  readonly changes: ChangeLog;
  /** Every namespace a pod was seen in (add-only: what a viewer's access is asked about). */
  readonly namespaces = new Set<string>();
  /** Bumped by every refresh that changed anything. */
  revision = 0;
  seq = 0;
  t = 0;
  private dirty = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expiry: ReturnType<typeof setInterval> | undefined;
  private nextUntil = Infinity;
  private readonly ac = new AbortController();
  private readonly clock: () => number;
  private readonly listeners = new Set<() => void>();
  private cache = new Map<string, unknown>();
  private cacheRevision = -1;

  constructor(
    private readonly source: EngineApi,
    options: OverviewIndexOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.changes = new ChangeLog({ keep: options.keepChanges ?? 100 });
  }

  /** The index of `source`, started on first use and kept as long as the source. */
  static of(source: EngineApi): OverviewIndex {
    let index = INDEXES.get(source);
    if (!index) {
      index = new OverviewIndex(source).start();
      INDEXES.set(source, index);
    }
    return index;
  }

  /** Reads the state now and follows the source's batches and re-judgements until `stop`. */
  start(): this {
    this.refresh();
    void this.follow();
    void this.followRejudged();
    this.expiry = setInterval(() => {
      if (this.clock() >= this.nextUntil) this.markDirty();
    }, 1_000);
    this.expiry.unref();
    return this;
  }

  stop(): void {
    this.ac.abort();
    if (this.timer) clearTimeout(this.timer);
    if (this.expiry) clearInterval(this.expiry);
    if (INDEXES.get(this.source) === this) INDEXES.delete(this.source);
  }

  private async follow(): Promise<void> {
    while (!this.ac.signal.aborted) {
      const live = this.source.subscribe(this.ac.signal);
      // The state may have moved between the last refresh and this subscription.
      this.markDirty();
      for await (const batch of live) if (batch.some(changesState)) this.markDirty();
      // Overflowed (or closed): nothing is lost, the next refresh reads the whole state.
    }
  }

  private async followRejudged(): Promise<void> {
    const rejudged = this.source.rejudged?.bind(this.source);
    if (!rejudged) return;
    while (!this.ac.signal.aborted) {
      await rejudged(this.ac.signal);
      this.markDirty();
    }
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.timer || this.ac.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refreshIfDirty();
    }, REFRESH_MS);
    this.timer.unref?.();
  }

  /** Called after every refresh that changed something. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Brings the index up to the source's state now, if anything happened since the last time. */
  refreshIfDirty(): void {
    if (this.dirty) this.refresh();
  }

  /** Recomputes the nodes whose view changed (or whose time-bound health ran out). */
  refresh(state: ClusterState = this.source.snapshot()): void {
    this.dirty = false;
    const now = this.clock();
    const revision = this.revision + 1;
    let changed = false;
    let visited = 0;
    for (const name in state.nodes) {
      const view = own(state.nodes, name);
      if (!view) continue;
      visited++;
      const at = this.byName.get(name);
      const entry = at === undefined ? undefined : this.entries[at];
      if (
        entry &&
        entry.view === view &&
        !entry.gone &&
        !(entry.until !== undefined && entry.until <= now)
      )
        continue;
      if (this.update(entry, name, view, now, revision)) changed = true;
    }
    const live = this.entries.length - this.goneCount();
    if (visited < live)
      for (const e of this.entries)
        if (!e.gone && !Object.hasOwn(state.nodes, e.facts.name)) {
          this.remove(e, revision);
          changed = true;
        }
    this.seq = state.seq;
    this.t = state.t;
    if (changed) {
      this.revision = revision;
      this.nextUntil = Infinity;
      for (const e of this.entries)
        if (e.until !== undefined && e.until < this.nextUntil) this.nextUntil = e.until;
      for (const l of this.listeners) l();
    }
  }

  private gone = 0;
  private goneCount(): number {
    return this.gone;
  }

  /** (Re)computes one node; true when anything about it changed. */
  private update(
    entry: IndexEntry | undefined,
    name: string,
    view: NodeView,
    now: number,
    revision: number,
  ): boolean {
    const facts = entry?.view === view ? entry.facts : nodeFacts(view);
    const old = new Map<string, { pod: PodView; row: PodRow }>();
    if (entry)
      entry.pods.forEach((pod, i) => old.set(pod.uid, { pod, row: entry.rows[i] as PodRow }));
    const rows: PodRow[] = [];
    const pods: PodView[] = [];
    let until: number | undefined;
    for (const uid in view.pods) {
      const pod = own(view.pods, uid);
      if (!pod) continue;
      const was = old.get(uid);
      const row =
        was && was.pod === pod && !(was.row.until !== undefined && was.row.until <= now)
          ? was.row
          : podRow(pod, now);
      rows.push(row);
      pods.push(pod);
      this.namespaces.add(row.namespace);
      if (row.until !== undefined && (until === undefined || row.until < until)) until = row.until;
    }
    const next: IndexEntry = {
      cell: entry?.cell ?? this.entries.length,
      facts,
      rows,
      pods,
      view,
      value: cellOf(facts, rows),
      labelOf: new Map(),
      changedAt: entry?.changedAt ?? revision,
      attention: [],
      ...(until !== undefined ? { until } : {}),
    };
    for (const [key, value] of Object.entries(facts.groups))
      next.labelOf.set(key, this.labels.encode(key, value));
    next.attention = attentionOf(next);
    if (entry) {
      this.tally.apply(entry, -1);
      if (entry.gone) this.gone--;
      if (!entry.gone) for (const tr of transitions(entry, next, now)) this.changes.add(tr);
    }
    this.tally.apply(next, 1);
    if (!entry || entry.gone || !sameCell(entry, next)) next.changedAt = revision;
    if (entry) this.entries[entry.cell] = next;
    else {
      this.byName.set(name, next.cell);
      this.entries.push(next);
    }
    return true;
  }

  private remove(entry: IndexEntry, revision: number): void {
    this.tally.apply(entry, -1);
    const gone: IndexEntry = {
      ...entry,
      view: undefined,
      rows: [],
      pods: [],
      gone: true,
      value: { ready: '', health: 0, pressure: 0, pods: 0, notReady: 0 },
      changedAt: revision,
      attention: [],
    };
    delete gone.until;
    this.entries[entry.cell] = gone;
    this.gone++;
  }

  /** A value computed once per revision (aggregates per group key, the attention list). */
  private cached<T>(key: string, make: () => T): T {
    if (this.cacheRevision !== this.revision) {
      this.cache = new Map();
      this.cacheRevision = this.revision;
    }
    if (this.cache.has(key)) return this.cache.get(key) as T;
    const v = make();
    this.cache.set(key, v);
    return v;
  }

  /** The counts of everything (a viewer who sees all). */
  aggregates(group?: string): Aggregates {
    return this.cached(`agg:${group ?? ''}`, () => this.tally.aggregates(this.entries, group));
  }

  attention(): { total: number; items: AttentionItem[] } {
    return this.cached('attention', () =>
      rankAttention(
        (function* (entries: IndexEntry[]) {
          for (const e of entries) yield* e.attention;
        })(this.entries),
      ),
    );
  }

  /** The nodes as a search reads them: rows of namespaces `canRead` allows (all without it). */
  *searchNodes(canRead?: NamespacePredicate): Generator<SearchNode> {
    for (const e of this.entries) {
      if (e.gone) continue;
      yield {
        cell: e.cell,
        facts: e.facts,
        rows: canRead ? e.rows.filter((r) => canRead(r.namespace)) : e.rows,
      };
    }
  }

  /** Answers a query from the state now (refreshed first when anything happened). */
  search(
    q: string,
    options: Omit<SearchOptions, 'change'> & { canRead?: NamespacePredicate } = {},
  ): SearchResult {
    // A batch may not have reached the index yet: read the state now (cheap when unchanged).
    this.refresh();
    const { canRead, ...rest } = options;
    return search(q, this.searchNodes(canRead), {
      ...rest,
      change: (id) => this.changes.members(id),
    });
  }

  /** The cell index of a node, if the index holds it. */
  cellOf(name: string): number | undefined {
    return this.byName.get(name);
  }
}

function sameCell(a: IndexEntry, b: IndexEntry): boolean {
  const x = a.value;
  const y = b.value;
  if (
    x.ready !== y.ready ||
    x.health !== y.health ||
    x.pressure !== y.pressure ||
    x.pods !== y.pods ||
    x.notReady !== y.notReady ||
    a.labelOf.size !== b.labelOf.size
  )
    return false;
  for (const [k, v] of a.labelOf) if (b.labelOf.get(k) !== v) return false;
  return true;
}

/** CRI and API-server events change nothing the overview shows (reducer.ts: seq and t only). */
const changesState = (e: { kind: string }) => e.kind !== 'cri' && e.kind !== 'k8s';
