import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { TimelineEvent } from '@/lib/timeline/events';
import { getConfig } from '@/server/config';
import { VisibleView } from '@/server/security/visible';
import { readProcedure, router } from '../init';

const time = z.number().finite().min(0).max(8.64e15);

/** A page of timeline.range: the events, and where the next page starts (null: none). */
export interface RangePage {
  events: TimelineEvent[];
  /** Pass back as `cursor` for the next page; null when this page reached the end. */
  nextCursor: string | null;
}

/** Cursors are the last seq a page returned, as text: opaque to clients. */
const cursor = z.string().regex(/^\d{1,15}$/, 'a cursor is what nextCursor gave back');

export const timelineRouter = router({
  /**
   * Recorded events in [from, to], ascending, a page at a time: at most `limit` events and at
   * most PODSCOPE_RANGE_MAX_BYTES of them, then `nextCursor` to go on from. A signed-in user
   * gets only the events of namespaces they may read (a page can then be shorter, even empty,
   * with a nextCursor still to follow).
   */
  range: readProcedure
    .input(
      z
        .object({
          from: time.optional(),
          to: time.optional(),
          afterSeq: z.number().int().min(0).optional(),
          cursor: cursor.optional(),
          limit: z.number().int().min(1).max(50_000).default(10_000),
          nodes: z.array(z.string().min(1).max(253)).max(1000).optional(),
        })
        .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
          message: '`from` must not be after `to`',
        }),
    )
    .query(async ({ ctx, input }): Promise<RangePage> => {
      const { cursor: at, ...q } = input;
      const afterSeq = Math.max(q.afterSeq ?? 0, at === undefined ? 0 : Number(at));
      if (!Number.isSafeInteger(afterSeq))
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'cursor out of range' });
      const maxBytes = getConfig().limits.rangeMaxBytes;
      const events = await ctx.engine.range({ ...q, afterSeq, maxBytes });
      const last = events[events.length - 1];
      // Fewer than asked may still mean more (the byte budget): one indexed look-up says.
      const more =
        last !== undefined &&
        (events.length === q.limit ||
          (await ctx.engine.range({ ...q, afterSeq: last.seq, limit: 1 })).length > 0);
      const view = await VisibleView.for(ctx.viewer);
      const shown = await view.events(events, (t) => ctx.engine.stateAt(t));
      return { events: shown, nextCursor: more && last ? String(last.seq) : null };
    }),
  stateAt: readProcedure
    .input(z.object({ t: time }))
    .query(async ({ ctx, input }) =>
      (await VisibleView.for(ctx.viewer)).state(await ctx.engine.stateAt(input.t)),
    ),
});
