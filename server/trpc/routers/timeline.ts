import { z } from 'zod';
import { publicProcedure, router } from '../init';

const time = z.number().finite().min(0).max(8.64e15);

export const timelineRouter = router({
  range: publicProcedure
    .input(
      z
        .object({
          from: time.optional(),
          to: time.optional(),
          afterSeq: z.number().int().min(0).optional(),
          limit: z.number().int().min(1).max(50_000).default(10_000),
          nodes: z.array(z.string().min(1).max(253)).max(1000).optional(),
        })
        .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
          message: '`from` must not be after `to`',
        }),
    )
    .query(({ ctx, input }) => ctx.engine.range(input)),
  stateAt: publicProcedure
    .input(z.object({ t: time }))
    .query(({ ctx, input }) => ctx.engine.stateAt(input.t)),
});
