import { tracked, TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { publicProcedure, router } from '../init';

/** One streamed item: the full state (first, or after a gap) or a batch of events in seq order. */
export type WatchMessage =
  { type: 'snapshot'; state: ClusterState } | { type: 'events'; events: TimelineEvent[] };

const BACKFILL_PAGE = 2_000;

const lastEventId = z
  .string()
  .regex(/^\d{1,15}$/, 'lastEventId must be a sequence number')
  .nullish();

export const clusterRouter = router({
  snapshot: publicProcedure.query(({ ctx }) => ctx.engine.snapshot()),

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
   * The current snapshot, then deltas, each tracked by the seq of its last event. Reconnecting
   * with lastEventId resumes with no gap and no duplicate: subscribe to the live bus first, then
   * backfill from the store, then skip anything at or below the last sent seq.
   */
  watch: publicProcedure.input(z.object({ lastEventId }).optional()).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const live = ctx.engine.subscribe(signal);
    try {
      let sent: number;
      const resumeFrom = input?.lastEventId != null ? Number(input.lastEventId) : undefined;
      if (
        resumeFrom === undefined ||
        resumeFrom < ctx.engine.oldestSeq() - 1 ||
        resumeFrom > ctx.engine.snapshot().seq
      ) {
        // First connection, or the gap reaches past retention (or a foreign id): start from a snapshot.
        const state = ctx.engine.snapshot();
        sent = state.seq;
        yield tracked(String(sent), { type: 'snapshot', state } satisfies WatchMessage);
      } else {
        sent = resumeFrom;
      }
      // Backfill what was recorded after `sent` (covers reconnects and the snapshot/subscribe race).
      for (;;) {
        const page = ctx.engine.eventsAfter(sent, BACKFILL_PAGE);
        if (page.length === 0) break;
        sent = page[page.length - 1]?.seq ?? sent;
        yield tracked(String(sent), { type: 'events', events: page } satisfies WatchMessage);
      }
      for await (const batch of live) {
        const fresh = batch.filter((e) => e.seq > sent);
        if (fresh.length === 0) continue;
        sent = fresh[fresh.length - 1]?.seq ?? sent;
        yield tracked(String(sent), { type: 'events', events: fresh } satisfies WatchMessage);
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
  }),
});
