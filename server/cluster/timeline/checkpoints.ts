/**
 * Checkpoints of the cluster timeline: the cluster state folded from the timeline up to a global
 * id. The state at a moment is the newest checkpoint that serves it plus the events after it, so
 * a seek reads a bounded stretch however long the timeline has grown — and stays right after
 * retention has dropped the days the state was built from.
 *
 *   const checkpoints = new ClusterCheckpoints(timeline);
 *   const state = await stateAt(timeline, checkpoints, t);      // a seek
 *   const keeper = new CheckpointKeeper({ timeline, checkpoints, floor });
 *   await keeper.tick();                                          // every few seconds
 *   await keeper.retain({ maxAgeMs });                            // instead of timeline.retention
 *
 * What is folded: events in gid order (the order every replica's view applied them), with the
 * view's rule for agent runs — a newer epoch of a node replaces what the older run knew. Events
 * carry their agent's clock, so the state at t holds the events with t' ≤ t in gid order; a
 * checkpoint records the newest event time it folded in (t_max) and serves only states at or
 * after it, where that filter would have kept every event it holds.
 *
 * Which events may be folded into a checkpoint: those the writers have committed with nothing
 * missing below them — up to their shared consumer's acknowledgement floor (`floor`), since two
 * writers may commit neighbouring batches in either order.
 */
import { reduce } from '@/lib/timeline/reducer';
import { own, type ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import { Checkpoints, type Checkpoint as StoredCheckpoint } from '@/server/timeline-db/checkpoints';
import { encodeSnapshotInSlices } from '@/server/timeline-db/snapshot';
import { runAsync, type Work } from '@/server/timeline-db/work';
import { isApiEpoch } from '../envelope';
import type { GapRecord } from '../global';
import type { KeeperLock } from './keeper-lock';
import type { ClusterTimeline, RetentionResult } from './timeline';

export interface Checkpoint {
  /** Every event with a gid up to this one is folded in. */
  gid: number;
  /** The newest event time folded in (0 when none). */
  tMax: number;
  /** The agent run each node's state came from. */
  epochs: Readonly<Record<string, string>>;
  state: ClusterState;
}

/**
 * Events per read of the timeline while folding (~35 µs per event). A seek folds on the console's
 * event loop; the keeper folds in a thread of its own (keeper-thread.ts).
 */
const PAGE = 1_000;
/** Default: a checkpoint once this many committed events lie past the newest one. */
export const CHECKPOINT_EVERY_EVENTS = 50_000;
/** Default: at most one checkpoint per replica this often (encoding a large state takes a while). */
export const CHECKPOINT_MIN_INTERVAL_MS = 30_000;
/** Decoded checkpoints kept: a scrub seeks around one moment again and again. */
const CACHE_SIZE = 2;

const isEvent = (e: TimelineEvent | GapRecord): e is TimelineEvent => e.kind !== 'gap';

export interface FoldLimit {
  /** Only events with t ≤ tMax (a state at tMax). */
  tMax?: number;
  /** Only events with gid ≤ upTo. */
  upTo?: number;
  /** Stop after this many events (gap records aside). */
  maxEvents?: number;
}

/**
 * The timeline folded from `from` (or the start) within `limit`. Each event touches its node
 * only, so each node is folded on its own (a one-node state through the same reducer, as the
 * view does): the cost of an event does not grow with the number of nodes.
 */
export async function foldTimeline(
  timeline: ClusterTimeline,
  from: Checkpoint | undefined,
  limit: FoldLimit = {},
): Promise<Checkpoint & { events: number }> {
  const nodes = new Map(Object.entries(from?.state.nodes ?? {}));
  const epochs = new Map(Object.entries(from?.epochs ?? {}));
  let seq = from?.state.seq ?? 0;
  let t = from?.state.t ?? 0;
  let gid = from?.gid ?? 0;
  let tMax = from?.tMax ?? 0;
  let events = 0;
  for (;;) {
    const page =
      limit.maxEvents === undefined ? PAGE : Math.min(PAGE, Math.max(1, limit.maxEvents - events));
    const rows = await timeline.withEpochs(gid, page, limit.tMax, limit.upTo);
    for (const { epoch, event } of rows) {
      gid = event.seq;
      if (event.t > tMax) tMax = event.t;
      if (!isEvent(event)) continue;
      events++;
      // The API view's source has no agent run of its own; an agent's newer run replaces
      // what the older one knew of its node.
      if (!isApiEpoch(epoch)) {
        const known = epochs.get(event.node);
        if (known !== undefined && known !== epoch) nodes.delete(event.node);
        epochs.set(event.node, epoch);
      }
      const before = nodes.get(event.node);
      const one = reduce({ seq: 0, t: 0, nodes: before ? { [event.node]: before } : {} }, event);
      const after = own(one.nodes, event.node);
      if (after) nodes.set(event.node, after);
      else nodes.delete(event.node);
      seq = event.seq;
      if (event.t > t) t = event.t;
    }
    if (rows.length < page) break;
    if (limit.maxEvents !== undefined && events >= limit.maxEvents) break;
  }
  const state: ClusterState = { seq, t, nodes: Object.fromEntries(nodes) };
  return { gid, tMax, epochs: Object.fromEntries(epochs), state, events };
}

/**
 * The cluster timeline's checkpoints: server/timeline-db's one checkpoint implementation (the
 * `checkpoints` table), its units run through kysely on the timeline's connection.
 */
export class ClusterCheckpoints {
  private readonly units: Checkpoints;

  constructor(private readonly timeline: ClusterTimeline) {
    this.units = new Checkpoints(timeline.db, { cached: CACHE_SIZE });
  }

  /**
   * Stores a checkpoint; one already stored at that gid is kept (it is the same state), and
   * becomes the base when this one is.
   */
  async write(cp: Checkpoint, options: { base?: boolean; now?: number } = {}): Promise<void> {
    const snapshot = await encodeSnapshotInSlices(cp.state);
    await this.run(
      this.units.write(
        { seq: cp.gid, tMax: cp.tMax, epochs: cp.epochs, snapshot },
        options.now ?? Date.now(),
        options.base ? { base: true } : {},
      ),
    );
  }

  /** The newest checkpoint at or below `gid`. */
  async atOrBelow(gid: number): Promise<Checkpoint | undefined> {
    return asCluster(await this.run(this.units.atOrBelow(gid)));
  }

  /** The checkpoint retention last built on (the timeline holds nothing before it). */
  async base(): Promise<Checkpoint | undefined> {
    return asCluster(await this.run(this.units.base()));
  }

  /** The newest checkpoint a state at `t` can start from. */
  async serving(t: number): Promise<Checkpoint | undefined> {
    return asCluster(await this.run(this.units.serving(t)));
  }

  /** The newest checkpoint (undefined when there is none). */
  async latest(): Promise<Checkpoint | undefined> {
    return asCluster(await this.run(this.units.latest()));
  }

  count(): Promise<number> {
    return this.run(this.units.count());
  }

  /** Removes the checkpoints below `gid` (they would fold forward from removed events). */
  pruneBelow(gid: number): Promise<number> {
    return this.run(this.units.deleteBelow(gid));
  }

  private run<T>(work: Work<T>): Promise<T> {
    return runAsync(this.timeline.db, work);
  }
}

function asCluster(cp: StoredCheckpoint | undefined): Checkpoint | undefined {
  return cp && { gid: cp.seq, tMax: cp.tMax, epochs: cp.epochs, state: cp.state };
}

/**
 * The cluster's state at `t` from the timeline: the newest checkpoint serving t, then the
 * events after it. After retention, a moment older than every checkpoint starts from the
 * retention's base checkpoint — the earliest state the timeline still knows — rather than from
 * the events that remain, which would miss everything the removed ones had built.
 */
export async function stateAt(
  timeline: ClusterTimeline,
  checkpoints: ClusterCheckpoints,
  t: number,
): Promise<ClusterState> {
  const from = (await checkpoints.serving(t)) ?? (await checkpoints.base());
  return (await foldTimeline(timeline, from, { tMax: t })).state;
}

export interface KeeperOptions {
  timeline: ClusterTimeline;
  checkpoints: ClusterCheckpoints;
  /** The newest gid below which every event is committed (the writers' acknowledgement floor). */
  floor: () => Promise<number>;
  /** A checkpoint once this many committed events lie past the newest (default 50,000). */
  everyEvents?: number;
  /** But at most one per this many ms from this keeper (default 30 s; 0 in tests). */
  minIntervalMs?: number;
  /** Only the replica holding this keeps checkpoints and runs retention (keeper-lock.ts). */
  lock?: KeeperLock;
  now?: () => number;
}

/** What `retain` did, or why it did nothing (`elsewhere`: another replica holds the lock). */
export type KeeperRetention = RetentionResult & { skipped?: string; elsewhere?: true };

/** Writes checkpoints as the timeline grows, and keeps them right through retention. */
export class CheckpointKeeper {
  private readonly everyEvents: number;
  private readonly now: () => number;
  private lastWrite = -Infinity;

  constructor(private readonly options: KeeperOptions) {
    this.everyEvents = options.everyEvents ?? CHECKPOINT_EVERY_EVENTS;
    this.now = options.now ?? Date.now;
  }

  /** One look: a new checkpoint when enough committed events lie past the newest one. */
  async tick(): Promise<Checkpoint | undefined> {
    const { timeline, checkpoints } = this.options;
    const minInterval = this.options.minIntervalMs ?? CHECKPOINT_MIN_INTERVAL_MS;
    if (this.now() - this.lastWrite < minInterval) return undefined;
    if (!(await this.holds())) return undefined;
    const floor = await this.options.floor();
    if (floor <= 0) return undefined;
    const last = await checkpoints.latest();
    if ((await timeline.countBetween(last?.gid ?? 0, floor)) < this.everyEvents) return undefined;
    return this.build(last, floor);
  }

  /**
   * Retention that keeps seeks right: first a base checkpoint at exactly the newest event it will
   * remove (it serves every moment from there on), then the removal, then the checkpoints before
   * the base (they would fold forward from removed events). Skipped, removing nothing, while the
   * writers have not committed that far.
   */
  async retain(policy: { maxAgeMs: number }): Promise<KeeperRetention> {
    const { timeline, checkpoints } = this.options;
    if (!(await this.holds()))
      return {
        droppedPartitions: [],
        deletedRows: 0,
        skipped: 'another replica keeps the checkpoints and runs retention',
        elsewhere: true,
      };
    const now = this.now();
    const lastRemoved = await timeline.lastGidBefore(timeline.retentionCut(policy, now));
    if (lastRemoved === undefined) return timeline.retention(policy, now);
    const floor = await this.options.floor();
    if (floor < lastRemoved)
      return {
        droppedPartitions: [],
        deletedRows: 0,
        skipped: `the writers have committed up to gid ${floor}, not yet past gid ${lastRemoved}`,
      };
    let at = await checkpoints.atOrBelow(lastRemoved);
    while (at?.gid !== lastRemoved) {
      const built = await this.build(at, lastRemoved);
      if (!built || built.gid === at?.gid) break;
      at = built;
    }
    if (at) await checkpoints.write(at, { base: true, now });
    const result = await timeline.retention(policy, now);
    await checkpoints.pruneBelow(at?.gid ?? lastRemoved);
    return result;
  }

  private holds(): Promise<boolean> {
    return this.options.lock ? this.options.lock.held() : Promise.resolve(true);
  }

  private async build(last: Checkpoint | undefined, upTo: number): Promise<Checkpoint | undefined> {
    // Bounded work per call: a long stretch (a timeline from before checkpoints) takes several.
    const folded = await foldTimeline(this.options.timeline, last, {
      upTo,
      maxEvents: this.everyEvents * 2,
    });
    if (folded.gid === (last?.gid ?? 0)) return last;
    const cp: Checkpoint = {
      gid: folded.gid,
      tMax: folded.tMax,
      epochs: folded.epochs,
      state: folded.state,
    };
    await this.options.checkpoints.write(cp, { now: this.now() });
    this.lastWrite = this.now();
    return cp;
  }
}
