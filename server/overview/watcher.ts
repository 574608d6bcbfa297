/**
 * What one overview.watch stream sends from the shared index: the OverviewMessage, then deltas
 * of the cells that changed since the last message (by the index's revision per cell, so nothing
 * queues up per watcher: a slow reader gets the latest values of what changed, once).
 *
 * A viewer who may not read some namespaces gets cells, counts and attention computed from the
 * pods they may read only (the node's own values — Ready, pressure, labels — stay, as in
 * lib/timeline/visibility.ts); such a watcher keeps its own Tally, updated per changed node.
 */
import { attentionOf, rankAttention, Tally } from '@/lib/overview/aggregates';
import { cellOf, type Cell, type PodRow } from '@/lib/overview/cells';
import type {
  Aggregates,
  AttentionItem,
  CellChanges,
  ChangeGroup,
  OverviewCells,
  OverviewDelta,
  OverviewMessage,
} from '@/lib/overview/wire';
import type { IndexEntry, NamespacePredicate, OverviewIndex } from './index';

/** Change groups an overview message carries. */
export const CHANGES_SHOWN = 50;

interface Filtered {
  /** The entry's rows it was made from (an unchanged node is skipped). */
  source: PodRow[];
  rows: PodRow[];
  value: Cell;
  gone?: boolean;
  facts: IndexEntry['facts'];
}

export class OverviewWatcher {
  /** Cells the reader holds (indices below this). */
  private held = 0;
  private revision = -1;
  private readonly labelsSent = new Map<string, number>();
  private lastAggregates = '';
  private lastAttention = '';
  private changesVersion = -1;
  /** Only for a filtered viewer: its view of each node. */
  private filtered: Filtered[] | undefined;
  private tally: Tally | undefined;
  /** Only for a filtered viewer: the cell values it was sent. */
  private readonly sentValue: Cell[] = [];

  constructor(
    private readonly index: OverviewIndex,
    private readonly canRead: NamespacePredicate | undefined,
    private readonly group: string | undefined,
  ) {}

  /** Whether the index moved since the last message. */
  get behind(): boolean {
    return this.index.revision !== this.revision;
  }

  private view(e: IndexEntry): Filtered | IndexEntry {
    const f = this.filtered;
    const canRead = this.canRead;
    if (!f || !canRead) return e;
    return f[e.cell] ?? e;
  }

  /** Recomputes the filtered view of the nodes changed since `since` (all for -1). */
  private follow(since: number): void {
    const canRead = this.canRead;
    if (!canRead) return;
    this.filtered ??= [];
    this.tally ??= new Tally();
    for (const e of this.index.entries) {
      // Rows may change with no change of the cell's values (a row's reason): compare rows.
      const had = this.filtered[e.cell];
      if (had && since >= 0 && had.facts === e.facts && had.source === e.rows) continue;
      const rows = e.rows.filter((r) => canRead(r.namespace));
      const next: Filtered = {
        source: e.rows,
        rows,
        value: e.gone ? e.value : cellOf(e.facts, rows),
        facts: e.facts,
        ...(e.gone ? { gone: true } : {}),
      };
      if (had) this.tally.apply(had, -1);
      this.tally.apply(next, 1);
      this.filtered[e.cell] = next;
    }
  }

  private aggregates(): Aggregates {
    if (!this.tally) return this.index.aggregates(this.group);
    const entries = this.filtered ?? [];
    return this.tally.aggregates(entries, this.group);
  }

  private attention(): { total: number; items: AttentionItem[] } {
    if (!this.filtered) return this.index.attention();
    const entries = this.filtered;
    return rankAttention(
      (function* () {
        for (const e of entries) yield* attentionOf(e);
      })(),
    );
  }

  private changes(): ChangeGroup[] {
    return this.index.changes.list(CHANGES_SHOWN);
  }

  /** The whole overview (the first message, and after a resume). */
  first(): OverviewMessage {
    this.index.refreshIfDirty();
    this.follow(-1);
    const n = this.index.entries.length;
    const cells: OverviewCells = {
      names: new Array<string>(n),
      ready: new Array<Cell['ready']>(n),
      health: new Array<number>(n),
      pressure: new Array<number>(n),
      pods: new Array<number>(n),
      notReady: new Array<number>(n),
      labels: {},
    };
    let gone: number[] | undefined;
    for (const e of this.index.entries) {
      const v = this.view(e).value;
      const i = e.cell;
      cells.names[i] = e.facts.name;
      cells.ready[i] = v.ready;
      cells.health[i] = v.health;
      cells.pressure[i] = v.pressure;
      cells.pods[i] = v.pods;
      cells.notReady[i] = v.notReady;
      if (this.filtered) this.sentValue[i] = v;
      if (e.gone) (gone ??= new Array<number>(n).fill(0))[i] = 1;
    }
    if (gone) cells.gone = gone;
    for (const key of this.index.labels.keyList()) {
      const values = this.index.labels.values(key);
      cells.labels[key] = {
        values: values.slice(),
        of: this.index.entries.map((e) => e.labelOf.get(key) ?? -1),
      };
      this.labelsSent.set(key, values.length);
    }
    this.held = n;
    this.revision = this.index.revision;
    const aggregates = this.aggregates();
    const attention = this.attention();
    this.lastAggregates = JSON.stringify(aggregates);
    this.lastAttention = JSON.stringify(attention);
    this.changesVersion = this.index.changes.version;
    return {
      type: 'overview',
      seq: this.index.seq,
      t: this.index.t,
      cells,
      aggregates,
      attention,
      changes: this.changes(),
    };
  }

  /** What changed since the last message; undefined when nothing did. */
  delta(): OverviewDelta | undefined {
    if (!this.behind) return undefined;
    const since = this.revision;
    this.follow(since);
    const cells: CellChanges = {
      index: [],
      ready: [],
      health: [],
      pressure: [],
      pods: [],
      notReady: [],
    };
    const names: string[] = [];
    let gone: number[] | undefined;
    const changedEntries: IndexEntry[] = [];
    for (const e of this.index.entries) {
      const isNew = e.cell >= this.held;
      if (!isNew && e.changedAt <= since && !this.filtered) continue;
      const v = this.view(e).value;
      if (!isNew && e.changedAt <= since) {
        // A filtered viewer: its cell can change with rows the shared cell does not show.
        const was = this.sentValue[e.cell];
        if (was && sameValue(was, v)) continue;
      }
      changedEntries.push(e);
      cells.index.push(e.cell);
      if (isNew) names.push(e.facts.name);
      cells.ready.push(v.ready);
      cells.health.push(v.health);
      cells.pressure.push(v.pressure);
      cells.pods.push(v.pods);
      cells.notReady.push(v.notReady);
      (gone ??= []).push(e.gone ? 1 : 0);
      if (this.filtered) this.sentValue[e.cell] = v;
    }
    if (names.length > 0) cells.names = names;
    if (gone?.some((g) => g === 1)) cells.gone = gone;
    const labels: NonNullable<CellChanges['labels']> = {};
    for (const key of this.index.labels.keyList()) {
      const values = this.index.labels.values(key);
      const added = values.slice(this.labelsSent.get(key) ?? 0);
      if (added.length > 0 || changedEntries.length > 0)
        labels[key] = { added, of: changedEntries.map((e) => e.labelOf.get(key) ?? -1) };
      this.labelsSent.set(key, values.length);
    }
    if (Object.keys(labels).length > 0) cells.labels = labels;
    this.held = Math.max(this.held, this.index.entries.length);
    this.revision = this.index.revision;
    const delta: OverviewDelta = {
      type: 'overview-delta',
      seq: this.index.seq,
      t: this.index.t,
      cells,
    };
    const aggregates = this.aggregates();
    const a = JSON.stringify(aggregates);
    if (a !== this.lastAggregates) {
      delta.aggregates = aggregates;
      this.lastAggregates = a;
    }
    const attention = this.attention();
    const at = JSON.stringify(attention);
    if (at !== this.lastAttention) {
      delta.attention = attention;
      this.lastAttention = at;
    }
    if (this.index.changes.version !== this.changesVersion) {
      delta.changes = this.changes();
      this.changesVersion = this.index.changes.version;
    }
    if (cells.index.length === 0 && !delta.aggregates && !delta.attention && !delta.changes)
      return undefined;
    return delta;
  }
}

function sameValue(x: Cell, y: Cell): boolean {
  return (
    x.ready === y.ready &&
    x.health === y.health &&
    x.pressure === y.pressure &&
    x.pods === y.pods &&
    x.notReady === y.notReady
  );
}
