/**
 * The recorder: the one place where timeline events get their server-wide `seq`, are folded into
 * the cluster state, written to the store and handed to the live subscribers.
 *
 * Module boundary: the recorder knows the store and a `publish` callback (the bus), nothing
 * about runtimes, nodes or kubelet rules. Per-node derivation lives in node-engine.ts; the façade
 * (engine.ts) wires the two together.
 *
 * - `nextSeq()` hands out seqs in order; `commit()` takes events already numbered (a relist
 *   numbers its CRI events first so that derived events can name them as their cause),
 *   `record()` numbers and commits a batch that needs no cause links.
 * - Events reach `publish` only after the store committed them, so a browser is never told
 *   anything a SIGKILL could take back.
 * - If the store fails (disk full), events wait in memory and are retried on the next write;
 *   `working` keeps moving and the failure is reported once per kind (health shows it).
 * - A batch the store refuses as too large is shrunk a step at a time (shrink.ts) and `working`
 *   rebuilt from the shrunk events, so replay still equals live.
 *
 * Invariant: working = reduce(committed, pending).
 */
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState, own, type ClusterState } from '@/lib/timeline/state';
import type { RangeQuery } from './api';
import type { Clock } from './relist/node-watcher';
import type { LogFn } from '@/server/log';
import { SHRINK_STEPS, shrinkEvent } from './shrink';

/** The store as the recorder uses it (server/timeline-db implements it, see store-adapter.ts). */
export interface EngineStore {
  /**
   * `states`: the recorder's committed state and that state with these events folded in, so a
   * store that keeps the head state need not fold them again (server/timeline-db's AppendStates).
   */
  append(
    events: readonly UnsequencedEvent[],
    states?: { before: ClusterState; after: ClusterState },
  ): TimelineEvent[];
  /** The highest seq ever assigned (kept even when retention removed the rows). */
  latestSeq(): number;
  oldestSeq(): number;
  eventsAfter(seq: number, limit: number): TimelineEvent[];
  range(q: RangeQuery): TimelineEvent[];
  stateAt(t: number): ClusterState;
  stateAtSeq(seq: number): ClusterState;
}

export interface RecorderOptions {
  store: EngineStore;
  clock: Clock;
  /** Where committed batches go (the bus). */
  publish: (batch: TimelineEvent[]) => void;
  /** The state to continue from when restarting on an existing timeline. */
  initialState?: ClusterState;
  /** Called for every event folded into the working state (metrics). */
  counted?: (event: TimelineEvent) => void;
  /** Called when the working state was rebuilt from shrunk events (node engines adopt it). */
  rebuilt?: (working: ClusterState) => void;
  log: LogFn;
}

/** How often at most shrinking is logged. */
const SHRINK_LOG_INTERVAL_MS = 3_600_000;

export class Recorder {
  /** Everything recorded so far (including events the store has not yet taken). */
  private workingState: ClusterState;
  /** Only what the store committed: what subscribers and snapshots see. */
  private committedState: ClusterState;
  private pending: TimelineEvent[] = [];
  private next: number;
  private error: string | undefined;
  /** The kind of the current store failure (its code), so a full disk is logged once, not per write. */
  private errorKind: string | undefined;
  /** When shrinking an event too large for the store was last logged. */
  private shrinkLoggedAt: number | undefined;

  constructor(private readonly options: RecorderOptions) {
    this.workingState = this.committedState = options.initialState ?? emptyState();
    this.next = Math.max(options.store.latestSeq(), this.committedState.seq) + 1;
  }

  get working(): ClusterState {
    return this.workingState;
  }

  get committed(): ClusterState {
    return this.committedState;
  }

  /** The store's error while it cannot write; undefined when writing works. */
  get storeError(): string | undefined {
    return this.error;
  }

  /** Events recorded but not yet written. */
  get held(): number {
    return this.pending.length;
  }

  /** The next seq (each call hands out a new one). */
  readonly nextSeq = (): number => this.next++;

  /** Numbers, folds and commits a batch of events that need no cause links. */
  record(events: readonly UnsequencedEvent[]): TimelineEvent[] {
    if (events.length === 0) return [];
    const batch: TimelineEvent[] = events.map((e) => ({ ...e, seq: this.nextSeq() }));
    this.commit(batch);
    return batch;
  }

  /**
   * Folds and commits events numbered by nextSeq(), in order. `folded`: a node engine's state
   * before and after it folded these very events, whose node view is taken instead of folding
   * again when adoptNodeFold can show it is the same (else the batch is folded).
   */
  commit(events: readonly TimelineEvent[], folded?: NodeFold): void {
    if (events.length === 0) return;
    this.workingState =
      (folded && adoptNodeFold(this.workingState, events, folded)) ??
      reduceAll(this.workingState, events);
    if (this.options.counted) for (const e of events) this.options.counted(e);
    this.pending.push(...events);
    this.flush();
  }

  /** Writes what is pending; on success publishes it, on failure holds it for the next write. */
  flush(): void {
    if (this.pending.length === 0) return;
    let batch = this.pending;
    let stored: TimelineEvent[];
    try {
      stored = this.options.store.append(stripSeq(batch), {
        before: this.committedState,
        after: this.workingState,
      });
    } catch (err) {
      const shrunk = isTooLarge(err) ? this.appendShrunk() : undefined;
      if (shrunk) ({ batch, stored } = shrunk);
      else return this.hold(err);
    }
    if (this.error)
      this.options.log(`store: writing again; ${batch.length} held event(s) recorded`, 'warn');
    this.error = undefined;
    this.errorKind = undefined;
    this.pending = [];
    if (stored.length !== batch.length || stored[0]?.seq !== batch[0]?.seq) {
      // The store is the authority on seq; it must agree with the recorder's numbering.
      throw new Error(
        `store assigned seqs ${stored[0]?.seq}… to a batch the engine numbered ${batch[0]?.seq}…`,
      );
    }
    // working = reduce(committed, pending), and the whole of pending was just stored: folding the
    // batch into committed again would rebuild exactly `working`.
    this.committedState = this.workingState;
    this.options.publish(batch);
  }

  /** The store cannot write (disk full …): keep the events in memory, say so once per kind of failure. */
  private hold(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown } | null)?.code;
    const kind = typeof code === 'string' ? code : message;
    if (this.errorKind !== kind)
      this.options.log(
        `store: ${message}; ${this.pending.length} event(s) held in memory and retried`,
        'error',
      );
    this.error = message;
    this.errorKind = kind;
  }

  /**
   * A batch the store refused as too large (an enormous string from a runtime): its events shrunk
   * a step at a time until the store takes them; the working state is rebuilt from the shrunk
   * events. undefined when no step is enough.
   */
  private appendShrunk(): { batch: TimelineEvent[]; stored: TimelineEvent[] } | undefined {
    for (const limits of SHRINK_STEPS) {
      const batch = this.pending.map((e) => shrinkEvent(e, limits));
      const working = reduceAll(this.committedState, batch);
      let stored: TimelineEvent[];
      try {
        stored = this.options.store.append(stripSeq(batch), {
          before: this.committedState,
          after: working,
        });
      } catch (err) {
        if (isTooLarge(err)) continue;
        return undefined;
      }
      this.pending = batch;
      this.workingState = working;
      this.options.rebuilt?.(this.workingState);
      const now = this.options.clock.now();
      if (
        this.shrinkLoggedAt === undefined ||
        now - this.shrinkLoggedAt >= SHRINK_LOG_INTERVAL_MS
      ) {
        this.shrinkLoggedAt = now;
        this.options.log(
          `store: events too large for the timeline were recorded with strings cut to ${limits.maxChars} characters and lists to ${limits.maxItems} items`,
          'warn',
        );
      }
      return { batch, stored };
    }
    return undefined;
  }
}

/** A node engine's state before and after it folded a batch of its node's events. */
export interface NodeFold {
  node: string;
  before: ClusterState;
  after: ClusterState;
}

/**
 * `reduceAll(working, events)` without folding the events again, when a node engine folded
 * exactly them into exactly the node view `working` holds: the fold of a node's events reads
 * and writes only that node's view, so the result is `working` with the engine's view for the
 * node and seq and t advanced as the fold advances them. undefined when that cannot be shown:
 * another view, an event about another node, a seq either fold would skip, a NodeRemoved (a
 * removal and re-add moves the node to the end of the map), or an engine that skipped events.
 */
export function adoptNodeFold(
  working: ClusterState,
  events: readonly TimelineEvent[],
  { node, before, after }: NodeFold,
): ClusterState | undefined {
  const held = own(working.nodes, node);
  if (held !== own(before.nodes, node)) return undefined;
  let seq = Math.max(working.seq, before.seq);
  let t = working.t;
  let onlyFacts = true;
  for (const e of events) {
    if (e.node !== node || !(e.seq > seq)) return undefined;
    if (e.kind === 'node' && e.type === 'NodeRemoved') return undefined;
    if (e.kind !== 'cri' && e.kind !== 'k8s') onlyFacts = false;
    seq = e.seq;
    t = Math.max(t, e.t);
  }
  if (after.seq !== seq) return undefined;
  const view = own(after.nodes, node);
  // As the reducer builds it: CRI and API events keep the state's other fields, the others not.
  if (onlyFacts) return view === held ? { ...working, seq, t } : undefined;
  if (view === held) return { seq, t, nodes: working.nodes };
  if (!view) return undefined;
  return { seq, t, nodes: { ...working.nodes, [node]: view } };
}

const isTooLarge = (err: unknown) => (err as { code?: unknown } | null)?.code === 'TOO_LARGE';

function stripSeq(events: TimelineEvent[]): UnsequencedEvent[] {
  return events.map(({ seq: _seq, ...rest }) => rest);
}
