import { tracked, TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { WireEncoder, type WireFrame } from '@/lib/timeline/wire';
import { MAX_DETAIL_NODES } from '@/lib/overview/wire';
import type { EngineApi } from '@/server/engine/api';
import type { Viewer } from '@/server/security/viewer';
import { VisibleView } from '@/server/security/visible';
import { publicProcedure, readProcedure, router } from '../init';
import { awaitedAhead } from '../prefetch';

/**
 * One streamed item: the full state (first, or after a gap), then batches of events in seq order
 * — as plain events, or, for a reader that asked for `wire: 1` or `wire: 2`, as lean wire frames
 * of that version (lib/timeline/wire.ts) that decode to the same events.
 */
export type WatchMessage =
  | { type: 'snapshot'; state: ClusterState }
  | { type: 'events'; events: TimelineEvent[] }
  | WireFrame;

const BACKFILL_PAGE = 2_000;

/**
 * How long a live batch waits for the batches that follow it (the other commits of the same
 * relist, other nodes' relists) before they all go as one SSE message: each message costs its
 * framing and a compressor flush, which at one transition per message was most of the stream.
 */
export const WATCH_COALESCE_MS = 20;

/**
 * A re-judged snapshot (node contact changed) is the whole cluster — ~33 MB of JSON per 1,000
 * nodes of 10 pods — so a watcher gets at most one per this many ms per node it shows, and at
 * least this far apart: a rack going quiet over a minute turns its nodes Unknown in a few
 * snapshots rather than one per judgement tick, and a busy replica is not swamped building them.
 */
export const RESNAPSHOT_MIN_MS = 5_000;
export const RESNAPSHOT_MS_PER_NODE = 2;

/** How long after a re-judged snapshot of `nodes` nodes the next may be sent. */
export const resnapshotAfterMs = (nodes: number) =>
  Math.max(RESNAPSHOT_MIN_MS, nodes * RESNAPSHOT_MS_PER_NODE);

const wait = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export const lastEventId = z
  .string()
  .regex(/^\d{1,15}$/, 'lastEventId must be a sequence number')
  .nullish();

/** A list of node names (a view's detail): at most MAX_DETAIL_NODES. */
export const nodeList = z.array(z.string().min(1).max(253)).max(MAX_DETAIL_NODES);

/**
 * With `nodes`, a resume reads the backlog of those nodes at most this many pages deep; a reader
 * further behind gets a fresh snapshot of them instead (never the whole cluster's backlog).
 */
export const DETAIL_BACKFILL_PAGES = 5;

export const clusterRouter = router({
  snapshot: readProcedure.query(async ({ ctx }) =>
    (await VisibleView.for(ctx.viewer)).state(ctx.engine.snapshot()),
  ),

  /**
   * What the console should warn about: the store failing to write (events are then held in
   * memory and reach browsers once it can write again, so a live view would otherwise just
   * look quiet).
   */
  health: publicProcedure.query(({ ctx }) => {
    const h = ctx.engine.health();
    return {
      ok: h.ok,
      storeError: h.storeError ?? null,
      heldEvents: h.heldEvents ?? 0,
    };
  }),

  /**
   * The current snapshot, then deltas, each tracked by the seq of its last event (in cluster mode
   * a global id, the same on every replica). Reconnecting with lastEventId — to this replica or
   * another — resumes with no gap and no duplicate: subscribe to the live bus first, then
   * backfill from the store, then skip anything at or below the last sent seq. A state change
   * with no event (cluster mode: node contact judged by heartbeat age) sends a fresh snapshot.
   * Namespaces the viewer may not read are cut from every snapshot and batch; ids stay the seq of
   * the last event recorded, shown or not, so a resume skips nothing shown. With `nodes`, the
   * snapshots hold those nodes only and the events are about them only (the overview's detail).
   */
  watch: readProcedure
    .input(
      z
        .object({
          lastEventId,
          wire: z.union([z.literal(1), z.literal(2)]).optional(),
          nodes: nodeList.optional(),
        })
        .optional(),
    )
    .subscription(({ ctx, input, signal }) =>
      awaitedAhead(watchStream(ctx.engine, ctx.viewer, input, signal)),
    ),
});

export interface WatchInput {
  lastEventId?: string | null | undefined;
  wire?: 1 | 2 | undefined;
  /** Only these nodes' detail (snapshots and events); all nodes when absent. */
  nodes?: readonly string[] | undefined;
  /** With `nodes` and lastEventId: the nodes the reader holds; any other → a fresh snapshot. */
  held?: readonly string[] | undefined;
}

/** The state with only `only`'s nodes. */
function restrict(state: ClusterState, only: ReadonlySet<string> | undefined): ClusterState {
  if (!only) return state;
  const nodes: ClusterState['nodes'] = {};
  for (const name of only) {
    const n = Object.hasOwn(state.nodes, name) ? state.nodes[name] : undefined;
    if (n) nodes[name] = n;
  }
  return { ...state, nodes };
}

/** cluster.watch's stream (see there); overview.watch reads it with `nodes`. */
export async function* watchStream(
  source: EngineApi,
  viewer: Viewer,
  input: WatchInput | undefined,
  signal: AbortSignal | undefined,
) {
  const only = input?.nodes ? new Set(input.nodes) : undefined;
  const held = input?.held ? new Set(input.held) : undefined;
  const about = (events: TimelineEvent[]) =>
    only ? events.filter((e) => only.has(e.node)) : events;
  const view = await VisibleView.for(viewer);
  const seek = (t: number) => source.stateAt(t);
  const live = source.subscribe(signal);
  const encoder = input?.wire ? new WireEncoder({ version: input.wire }) : undefined;
  const message = (events: TimelineEvent[]): WatchMessage =>
    encoder ? encoder.encode(events) : { type: 'events', events };
  const snapshot = (state: ClusterState) => {
    encoder?.seed(state);
    return tracked(String(state.seq), { type: 'snapshot', state } satisfies WatchMessage);
  };
  try {
    let sent: number;
    const resumeFrom = input?.lastEventId != null ? Number(input.lastEventId) : undefined;
    const holdsAll = !only || !held || [...only].every((n) => held.has(n));
    if (resumeFrom === undefined || !holdsAll || !(await resumable(source, resumeFrom, signal))) {
      // First connection, or the gap reaches past retention (or a foreign id), or nodes the
      // reader does not hold: start from a snapshot.
      const state = await view.state(restrict(source.snapshot(), only));
      sent = state.seq;
      yield snapshot(state);
    } else {
      sent = resumeFrom;
      // Pods added before the resume point: learned from the state the backfill continues.
      if (!view.unfiltered) await view.learn(source.snapshot());
    }
    // Backfill what was recorded after `sent` (covers reconnects and the snapshot/subscribe race).
    for (let pages = 0; ; pages++) {
      if (only && pages >= DETAIL_BACKFILL_PAGES) {
        // Far behind: the nodes as they are now, not their backlog.
        const state = await view.state(restrict(source.snapshot(), only));
        if (state.seq > sent) {
          sent = state.seq;
          yield snapshot(state);
        }
        break;
      }
      const page = await source.eventsAfter(sent, BACKFILL_PAGE);
      if (page.length === 0) break;
      sent = page[page.length - 1]?.seq ?? sent;
      const shown = await view.events(about(page), seek);
      if (shown.length > 0) yield tracked(String(sent), message(shown));
    }
    const batches = live[Symbol.asyncIterator]();
    let next = batches.next();
    let rejudged = source.rejudged?.(signal);
    /** When the next re-judged snapshot may go (the first goes at once). */
    let resnapshotAt = 0;
    for (;;) {
      const got: IteratorResult<TimelineEvent[]> | typeof REJUDGED = await (rejudged
        ? Promise.race([next, rejudged.then((): typeof REJUDGED => REJUDGED)])
        : next);
      if (got === REJUDGED) {
        if (signal?.aborted) break;
        const early = resnapshotAt - Date.now();
        if (early > 0) {
          // Too soon after the last one: send it then, with whatever changed by that time; the
          // events go on meanwhile.
          rejudged = wait(early, signal);
          continue;
        }
        // Everything queued is in the state now: a fresh snapshot replaces it.
        live.drain();
        const state = await view.state(restrict(source.snapshot(), only));
        resnapshotAt = Date.now() + resnapshotAfterMs(Object.keys(state.nodes).length);
        if (state.seq >= sent) {
          sent = state.seq;
          yield snapshot(state);
        }
        rejudged = source.rejudged?.(signal);
        continue;
      }
      if (got.done) break;
      if (WATCH_COALESCE_MS > 0) await wait(WATCH_COALESCE_MS, signal);
      const fresh: TimelineEvent[] = [];
      for (const b of [got.value, ...live.drain()])
        for (const e of b) if (e.seq > (fresh[fresh.length - 1]?.seq ?? sent)) fresh.push(e);
      // Only now: a pending next() would take a batch the drain above should have had.
      next = batches.next();
      if (fresh.length === 0) continue;
      sent = fresh[fresh.length - 1]?.seq ?? sent;
      const shown = await view.events(about(fresh), seek);
      if (shown.length > 0) yield tracked(String(sent), message(shown));
    }
    if (live.overflowed) {
      // We fell behind the live bus: end with a retryable error; the client resumes from `sent`.
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'subscriber fell behind; resume from the last event id',
      });
    }
  } finally {
    live.close();
  }
}

const REJUDGED: unique symbol = Symbol('rejudged');

/** How long a replica may take to reach an id another replica already sent. */
const RESUME_WAIT_MS = 10_000;

/** Whether a stream can resume after `seq` here (else it starts from a snapshot). */
async function resumable(source: EngineApi, seq: number, signal: AbortSignal | undefined) {
  const reached = source.reach
    ? await source.reach(seq, RESUME_WAIT_MS, signal)
    : seq <= source.snapshot().seq;
  return reached && seq >= (await source.oldestSeq()) - 1;
}
