/**
 * The cluster as a console replica sees it from the bus: every agent's transitions folded through
 * the one reducer (lib/timeline) in stream order, under global ids (global.ts).
 *
 * Per node it keeps the agent run (epoch) it follows and the last seq applied, so:
 *  - a seq already applied (a redelivery, a republished message) is dropped and counted;
 *  - a newer epoch (the agent restarted) replaces the node's pods by what the new run reports
 *    (its first relist re-adds every pod still there); an older epoch's messages are dropped;
 *  - a missing run of seqs is recorded as a gap: explicit when the agent announced it (its
 *    outbox overflowed), unexplained otherwise.
 *
 * Node contact is judged here, centrally, by heartbeat age, with the node lifecycle controller's
 * rule (lib/kubelet generateNodeConditions: no contact for node-monitor-grace-period → Ready,
 * MemoryPressure, DiskPressure, PIDPressure Unknown, "Kubelet stopped posting node status.").
 * It is applied when the state is read (`snapshot(now)`), so it needs no event and recovers by
 * itself when heartbeats return. Two agents heartbeating for one node name with different runs
 * within the grace period are a conflict (`conflicts()`), shown rather than merged.
 */
import { generateNodeConditions, nodeLifecycleReady, type NodeReadiness } from '@/lib/kubelet';
import { reduceAll } from '@/lib/timeline/reducer';
import { own, setOwn, type ClusterState, type NodeView, type PodView } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import { TimeSlice } from '@/server/time-slice';
import { readLive, watchLive } from './bus/kv';
import type { Delivered, ReplicaReader } from './bus/reader';
import { compareEpochs, isApiEpoch, type Heartbeat, type NodeState } from './envelope';
import { globalEvents, type GapRecord } from './global';

export interface NodeTrack {
  epoch: string;
  lastSeq: number;
  /**
   * When this replica first heard of the node, by any message (our clock). Until its first
   * heartbeat arrives the node's contact is counted from here, as the node lifecycle controller
   * counts a node it has just observed from then (its probe timestamp; upstream
   * pkg/controller/nodelifecycle tryUpdateNodeHealth): a node that joins with its events ahead of
   * its heartbeat is new, not silent since the replica started.
   */
  seenAt: number;
  /** Where the agent said it was last (its heartbeat) and when we heard it (our clock). */
  heartbeat?: Heartbeat;
  heardAt?: number;
  /** Every agent instance heard for this name: `${host}/${pid}/${epoch}` → when. */
  instances: Map<string, { heartbeat: Heartbeat; heardAt: number }>;
}

export interface GapNote {
  node: string;
  epoch: string;
  from: number;
  to: number;
  /** True when the agent announced it (outbox overflow); false when seqs simply never came. */
  explicit: boolean;
  gid: number;
}

export interface Conflict {
  node: string;
  instances: { host: string; pid: number; endpoint: string; epoch: string; heardAt: number }[];
}

export interface ClusterViewStats {
  applied: number;
  duplicates: number;
  staleEpoch: number;
  lastStreamSeq: number;
}

/** The view's track of the API-view source for a node (':' is in no node name). */
export const apiTrackKey = (node: string) => `api:${node}`;

export class ClusterView {
  /**
   * Each node's view, folded on its own: an event touches its node only, so folding it into a
   * one-node state costs the same at 10 nodes as at 10,000 (the whole-cluster state is built
   * when read, and kept until the next change).
   */
  private readonly nodes = new Map<string, NodeView>();
  private seq = 0;
  private t = 0;
  private folded: ClusterState | undefined;
  private readonly tracks = new Map<string, NodeTrack>();
  readonly gaps: GapNote[] = [];
  readonly stats: ClusterViewStats = { applied: 0, duplicates: 0, staleEpoch: 0, lastStreamSeq: 0 };
  private readonly listeners = new Set<(events: (TimelineEvent | GapRecord)[]) => void>();

  constructor(
    private readonly options: {
      graceMs: number;
      startedAt?: number;
      maxGaps?: number;
      /** Our clock (default Date.now): when a node was first heard of. */
      clock?: () => number;
    },
  ) {}

  private newTrack(epoch: string): NodeTrack {
    return { epoch, lastSeq: 0, seenAt: (this.options.clock ?? Date.now)(), instances: new Map() };
  }

  /** When the node was last heard from, or first heard of when it has not heartbeated yet. */
  private static contactAt(track: NodeTrack): number {
    return track.heardAt ?? track.seenAt;
  }

  /** Applies one delivered stream message (in stream order). Returns the events applied. */
  apply(d: Delivered): (TimelineEvent | GapRecord)[] {
    const m = d.message;
    this.stats.lastStreamSeq = Math.max(this.stats.lastStreamSeq, d.streamSeq);
    // The API-view leader's messages about a node are a source of their own (api-view.ts).
    const api = isApiEpoch(m.epoch);
    const key = api ? apiTrackKey(m.node) : m.node;
    let track = this.tracks.get(key);
    if (track && m.epoch !== track.epoch) {
      if (compareEpochs(m.epoch, track.epoch) < 0) {
        this.stats.staleEpoch++;
        return [];
      }
      // A new run of the agent: it reports the node afresh; what the old run knew is replaced.
      // (A new API-view leader continues the node as it is: it publishes only what changed.)
      if (!api && this.nodes.delete(m.node)) this.folded = undefined;
      track.epoch = m.epoch;
      track.lastSeq = 0;
    }
    if (!track) {
      track = this.newTrack(m.epoch);
      this.tracks.set(key, track);
    }
    const applied: (TimelineEvent | GapRecord)[] = [];
    // The message's new events, folded as one batch below (the reducer then copies the node's
    // pod map once per message, not once per event).
    const fold: TimelineEvent[] = [];
    for (const g of globalEvents(d.streamSeq, m)) {
      const seq = g.nodeSeq;
      if (seq <= track.lastSeq) {
        this.stats.duplicates++;
        continue;
      }
      if (seq > track.lastSeq + 1)
        this.noteGap({
          node: m.node,
          epoch: m.epoch,
          from: track.lastSeq + 1,
          to: seq - 1,
          explicit: false,
          gid: g.gid,
        });
      if (g.event.kind === 'gap') {
        this.noteGap({
          node: m.node,
          epoch: m.epoch,
          from: g.event.lost.from,
          to: g.event.lost.to,
          explicit: true,
          gid: g.gid,
        });
        track.lastSeq = g.event.lost.to;
      } else {
        fold.push(g.event);
        this.seq = g.gid;
        if (g.event.t > this.t) this.t = g.event.t;
        track.lastSeq = seq;
        this.stats.applied++;
      }
      applied.push(g.event);
    }
    if (fold.length > 0) {
      // The node alone as a state: the reducer folds the message's events into it.
      const before = this.nodes.get(m.node);
      const one: ClusterState = { seq: 0, t: 0, nodes: before ? { [m.node]: before } : {} };
      const after = own(reduceAll(one, fold).nodes, m.node);
      if (after !== before) {
        if (after) this.nodes.set(m.node, after);
        else this.nodes.delete(m.node);
      }
    }
    if (applied.length > 0) {
      this.folded = undefined;
      for (const l of this.listeners) l(applied);
    }
    return applied;
  }

  private noteGap(g: GapNote): void {
    this.gaps.push(g);
    if (this.gaps.length > (this.options.maxGaps ?? 1_000)) this.gaps.shift();
  }

  /** A heartbeat from KV; `heardAt` is our clock when it arrived. */
  heartbeat(hb: Heartbeat, heardAt: number): void {
    let track = this.tracks.get(hb.node);
    if (!track) {
      track = this.newTrack(hb.epoch);
      this.tracks.set(hb.node, track);
    }
    track.instances.set(`${hb.instance.host}/${hb.instance.pid}/${hb.epoch}`, {
      heartbeat: hb,
      heardAt,
    });
    if (compareEpochs(hb.epoch, track.epoch) >= 0 || !track.heartbeat) {
      track.heartbeat = hb;
      track.heardAt = heardAt;
    } else if (hb.epoch === track.heartbeat.epoch) {
      track.heardAt = heardAt;
    }
  }

  /**
   * A node's latest full state from KV, for a replica that starts after the events that built
   * it: taken when the view knows nothing newer for that node (then the stream continues it).
   */
  baseline(s: NodeState): void {
    const track = this.tracks.get(s.node);
    if (
      track &&
      (compareEpochs(track.epoch, s.epoch) > 0 ||
        (track.epoch === s.epoch && track.lastSeq >= s.seq))
    )
      return;
    this.nodes.set(s.node, s.view);
    this.folded = undefined;
    const t = track ?? this.newTrack(s.epoch);
    t.epoch = s.epoch;
    t.lastSeq = s.seq;
    this.tracks.set(s.node, t);
  }

  track(node: string): NodeTrack | undefined {
    return this.tracks.get(node);
  }

  /** Two or more agent runs heartbeating for one node name within the grace period. */
  conflicts(now: number): Conflict[] {
    const out: Conflict[] = [];
    for (const [node, track] of this.tracks) {
      const recent = [...track.instances.values()].filter(
        (i) => now - i.heardAt <= this.options.graceMs,
      );
      for (const [key, i] of track.instances)
        if (now - i.heardAt > 4 * this.options.graceMs) track.instances.delete(key);
      const epochs = new Set(recent.map((i) => i.heartbeat.epoch));
      if (epochs.size < 2) continue;
      out.push({
        node,
        instances: recent.map((i) => ({
          host: i.heartbeat.instance.host,
          pid: i.heartbeat.instance.pid,
          endpoint: i.heartbeat.instance.endpoint,
          epoch: i.heartbeat.epoch,
          heardAt: i.heardAt,
        })),
      });
    }
    return out;
  }

  /** Every node's folded view as one state (built once per change). */
  private state(): ClusterState {
    this.folded ??= { seq: this.seq, t: this.t, nodes: Object.fromEntries(this.nodes) };
    return this.folded;
  }

  /** Nodes whose agent has not been heard within the grace period (what `snapshot` judges). */
  *outOfContact(now: number): Generator<string> {
    for (const [name, track] of this.tracks) {
      if (!this.nodes.has(name)) continue;
      if (now - ClusterView.contactAt(track) > this.options.graceMs) yield name;
    }
  }

  /** Names of the nodes the view holds. */
  nodeNames(): IterableIterator<string> {
    return this.nodes.keys();
  }

  /** The state now, with node contact judged by heartbeat age. */
  snapshot(now: number): ClusterState {
    const state = this.state();
    let nodes: Record<string, NodeView> | undefined;
    for (const name of this.outOfContact(now)) {
      const view = this.nodes.get(name);
      const track = this.tracks.get(name);
      if (!view || !track) continue;
      const lastContactAt = ClusterView.contactAt(track);
      const judged = generateNodeConditions({
        now,
        lastContactAt,
        oldConditions: view.conditions,
        runtimeConditions: view.runtimeConditions,
        lastRelistAt: lastContactAt,
        lastStatusAt: lastContactAt,
        timings: { nodeMonitorGracePeriodMs: this.options.graceMs },
        ...(this.options.startedAt !== undefined ? { startedAt: this.options.startedAt } : {}),
      });
      nodes ??= { ...state.nodes };
      nodes[name] = {
        ...view,
        conditions: judged.conditions,
        why: { ...view.why, ...judged.why },
        health: { ...view.health, connected: false },
        pods: markedPods(view.pods, judged.ready),
      };
    }
    return nodes ? { ...state, nodes } : state;
  }

  onApplied(listener: (events: (TimelineEvent | GapRecord)[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The pods of a node judged out of contact as the API server then shows them: the node lifecycle
 * controller marked them not ready if it turned the node's Ready from True to Unknown
 * (lib/kubelet nodeLifecycleReady; the mark dates from the transition).
 */
function markedPods(pods: Record<string, PodView>, ready: NodeReadiness): Record<string, PodView> {
  const out: Record<string, PodView> = {};
  for (const uid of Object.keys(pods)) {
    const p = own(pods, uid);
    if (!p) continue;
    const r = nodeLifecycleReady(p.status.conditions ?? [], ready, false, ready.since);
    setOwn(
      out,
      uid,
      r.why
        ? {
            ...p,
            status: { ...p.status, conditions: r.conditions },
            why: { ...p.why, conditions: { ...p.why.conditions, Ready: r.why } },
          }
        : p,
    );
  }
  return out;
}

/**
 * How long the tail applies messages before it gives the event loop a turn. A backlog (a flood,
 * a replica catching up) arrives in socket reads of hundreds of messages that the tail's loop
 * would otherwise apply on microtasks alone, holding back every timer and I/O completion on the
 * replica — the SSE streams' compressor among them, whose subscribers then fell more than a
 * queue behind and had to resume from the database.
 */
export const TAIL_SLICE_MS = 5;

/**
 * Follows the cluster bus into a view: heartbeats and node states from KV (as they change), every
 * stream message from `fromStreamSeq` on (the replica's tail). Resolves once both feeds run;
 * stops on `signal`.
 */
export async function followBus(
  reader: ReplicaReader,
  view: ClusterView,
  options: { fromStreamSeq?: number; signal: AbortSignal; clock?: () => number },
): Promise<{ done: Promise<void> }> {
  const clock = options.clock ?? Date.now;
  const live = await readLive(reader.bus);
  for (const s of live.states.values()) view.baseline(s);
  for (const hb of live.heartbeats.values()) view.heartbeat(hb, Math.min(hb.t, clock()));
  const kv = (async () => {
    for await (const e of watchLive(reader.bus, options.signal))
      if (e.kind === 'hb') view.heartbeat(e.value, clock());
  })();
  const stream = (async () => {
    const slice = new TimeSlice(TAIL_SLICE_MS);
    for await (const d of reader.tail(options.fromStreamSeq ?? 1, { signal: options.signal })) {
      view.apply(d);
      const turn = slice.turn();
      if (turn) await turn; // inside the slice: not even a microtask
    }
  })();
  return { done: Promise.all([kv, stream]).then(() => undefined) };
}
