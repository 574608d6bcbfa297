/**
 * The browser's copy of the timeline: a base state, the events after it in seq order, and
 * client-side snapshots every N events so the state at any buffered moment is one snapshot plus
 * at most N reduce steps away (scrubbing stays instant). State is only ever built with the
 * shared reducer, exactly as the server records it.
 *
 * The buffer is bounded: past `maxEvents` it drops its oldest events at a snapshot boundary and
 * that snapshot becomes the new base, so every moment still covered stays exact.
 */
import { reduce } from '@/lib/timeline/reducer';
import type { ClusterState } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';

interface Snapshot {
  /** How many buffered events are folded into `state` (events[0..index)). */
  index: number;
  state: ClusterState;
}

export interface BufferOptions {
  snapshotEvery?: number;
  maxEvents?: number;
}

export class TimelineBuffer {
  readonly snapshotEvery: number;
  readonly maxEvents: number;
  private evts: TimelineEvent[] = [];
  /** Running maximum of `t` over events[0..i], so "events up to time t" is a binary search even if observation times jitter. */
  private maxT: number[] = [];
  private snaps: Snapshot[];
  private head: ClusterState;
  private memo: { k: number; state: ClusterState } | undefined;
  private rev = 0;
  private originT: number;

  constructor(base: ClusterState, opts: BufferOptions = {}, origin = base.t) {
    this.snapshotEvery = Math.max(1, opts.snapshotEvery ?? 250);
    this.maxEvents = Math.max(this.snapshotEvery * 2, opts.maxEvents ?? 50_000);
    this.snaps = [{ index: 0, state: base }];
    this.head = base;
    this.originT = origin;
  }

  /** Changes whenever the buffer's contents change; React keys re-renders on it. */
  get version(): number {
    return this.rev;
  }
  get base(): ClusterState {
    return this.firstSnapshot().state;
  }
  /** The state after every buffered event (the live state). */
  get latest(): ClusterState {
    return this.head;
  }
  get events(): readonly TimelineEvent[] {
    return this.evts;
  }
  /**
   * The earliest moment the buffer can show exactly: the moment the base was taken at (a
   * checkpoint's state carries the time of its last event, which may be well before that).
   */
  get from(): number {
    return this.originT;
  }
  /** The latest moment the buffer knows of. */
  get to(): number {
    return this.head.t;
  }

  /** Starts over from `base`, taken at `origin` (first snapshot, or a resync after a gap). */
  reset(base: ClusterState, events: readonly TimelineEvent[] = [], origin = base.t): void {
    this.originT = origin;
    this.evts = [];
    this.maxT = [];
    this.snaps = [{ index: 0, state: base }];
    this.head = base;
    this.memo = undefined;
    this.rev++;
    this.append(events);
  }

  /**
   * Appends events in seq order. Re-deliveries and anything at or below the latest seq are
   * skipped, like the reducer does, so a resumed stream can overlap safely. Returns how many
   * were taken.
   */
  append(events: readonly TimelineEvent[]): number {
    let taken = 0;
    for (const e of events) {
      if (e.seq <= this.head.seq) continue;
      this.head = reduce(this.head, e);
      this.evts.push(e);
      const prev = this.maxT.length > 0 ? (this.maxT[this.maxT.length - 1] ?? e.t) : e.t;
      this.maxT.push(Math.max(prev, e.t));
      if (this.needsSnapshot()) {
        this.snaps.push({ index: this.evts.length, state: this.head });
      }
      taken++;
    }
    if (taken > 0) {
      this.rev++;
      this.trim();
    }
    return taken;
  }

  /**
   * Puts older history in front: `base` is the state at the earlier moment `origin` and
   * `events` lead from it up to the current base. Events outside (base.seq, current base seq]
   * are ignored.
   */
  prepend(base: ClusterState, events: readonly TimelineEvent[], origin = base.t): void {
    const current = this.base;
    if (base.seq >= current.seq) {
      // Nothing happened in between: the same state simply covers an earlier moment too.
      if (base.seq === current.seq && origin < this.originT) {
        this.originT = origin;
        this.rev++;
      }
      return;
    }
    const older = events
      .filter((e) => e.seq > base.seq && e.seq <= current.seq)
      .sort((a, b) => a.seq - b.seq);
    const all = [...older, ...this.evts];
    this.reset(base, all, Math.min(origin, this.originT));
  }

  /** Index of the first event whose time is after `t` (= how many events happened by `t`). */
  countUntil(t: number): number {
    let lo = 0;
    let hi = this.maxT.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.maxT[mid] ?? Infinity) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The state at time `t`: nearest snapshot at or before it, plus the events in between. */
  stateAt(t: number): ClusterState {
    return this.stateAfter(this.countUntil(t));
  }

  /** The state after the first `k` buffered events. */
  stateAfter(k: number): ClusterState {
    const target = Math.max(0, Math.min(k, this.evts.length));
    if (target === this.evts.length) return this.head;
    const snap = this.snapshotAtOrBefore(target);
    // Playback moves forward a few events at a time: continue from the last answer when it is
    // closer than the snapshot.
    const start =
      this.memo && this.memo.k <= target && this.memo.k >= snap.index
        ? this.memo
        : { k: snap.index, state: snap.state };
    let state = start.state;
    for (let i = start.k; i < target; i++) {
      const e = this.evts[i];
      if (e) state = reduce(state, e);
    }
    this.memo = { k: target, state };
    return state;
  }

  /** Number of snapshots held (for tests and diagnostics). */
  get snapshotCount(): number {
    return this.snaps.length;
  }

  private firstSnapshot(): Snapshot {
    const s = this.snaps[0];
    if (!s) throw new Error('TimelineBuffer: no base snapshot (invariant broken)');
    return s;
  }

  private needsSnapshot(): boolean {
    const last = this.snaps[this.snaps.length - 1];
    return last !== undefined && this.evts.length - last.index >= this.snapshotEvery;
  }

  private snapshotAtOrBefore(k: number): Snapshot {
    let lo = 0;
    let hi = this.snaps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.snaps[mid]?.index ?? Infinity) <= k) lo = mid;
      else hi = mid - 1;
    }
    return this.snaps[lo] ?? this.firstSnapshot();
  }

  /** Drops the oldest events at a snapshot boundary once the buffer is over its bound. */
  private trim(): void {
    if (this.evts.length <= this.maxEvents) return;
    // Keep roughly three quarters of the bound so trimming happens in chunks, not per event.
    const keep = Math.floor(this.maxEvents * 0.75);
    const cut = this.snaps.filter((s) => this.evts.length - s.index >= keep).pop();
    if (!cut || cut.index === 0) return;
    this.evts = this.evts.slice(cut.index);
    this.maxT = this.maxT.slice(cut.index);
    this.snaps = this.snaps
      .filter((s) => s.index >= cut.index)
      .map((s) => ({ index: s.index - cut.index, state: s.state }));
    this.memo = undefined;
    this.originT = cut.state.t;
  }
}
