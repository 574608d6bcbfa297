/**
 * The guided walkthroughs: the list of scenarios (ids, message ids of their texts, level,
 * topics), and the recording a walkthrough replays — recorded on first request, then kept.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { WalkthroughNotFoundError } from '@/server/learn';
import { publicProcedure, router } from '../init';

/** Scenario ids are the library's file names: lower-case words joined by dashes. */
export const walkthroughId = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/, 'a walkthrough id is lower-case letters, digits and -');

export const learnRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.learn.list()),
  recording: publicProcedure
    .input(z.object({ id: walkthroughId }))
    .query(async ({ ctx, input }) => {
      try {
        return await ctx.learn.recording(input.id);
      } catch (err) {
        if (err instanceof WalkthroughNotFoundError)
          throw new TRPCError({ code: 'NOT_FOUND', message: err.message, cause: err });
        throw err;
      }
    }),
});
