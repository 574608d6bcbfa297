import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { sameEndpoint } from '@/server/cri/endpoint';
import { mutationProcedure, readProcedure, router } from '../init';

const nodeName = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
    'a node name is a DNS subdomain (lower case letters, digits, - and .)',
  );

/** A cluster-mode console watches what agents publish: nodes come and go with their agents. */
function clusterRefuses(mode: 'cluster' | undefined): void {
  if (mode === 'cluster')
    throw new TRPCError({
      code: 'PRECONDITION_FAILED',
      message: 'in cluster mode nodes join by running `podscope agent --cri … --nats …` on them',
    });
}

export const nodesRouter = router({
  list: readProcedure.query(({ ctx }) => ctx.engine.nodes()),
  connect: mutationProcedure
    .input(z.object({ name: nodeName, endpoint: z.string().min(1).max(1024) }))
    .mutation(async ({ ctx, input }) => {
      clusterRefuses(ctx.engine.mode);
      if (!ctx.engine.endpointAllowed(input.endpoint)) {
        throw new TRPCError({
          code: 'FORBIDDEN',
          message: `endpoint ${input.endpoint} is not configured or allow-listed (PODSCOPE_ALLOW_ENDPOINTS)`,
        });
      }
      if (ctx.engine.nodes().some((n) => n.name === input.name)) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `node ${input.name} is already connected`,
        });
      }
      // One node per endpoint (so at most as many nodes as configured and allow-listed endpoints).
      const holder = ctx.engine.nodes().find((n) => sameEndpoint(n.endpoint, input.endpoint));
      if (holder) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `endpoint ${input.endpoint} is already watched as ${holder.name}`,
        });
      }
      return ctx.engine.connect(input);
    }),
  disconnect: mutationProcedure
    .input(z.object({ name: nodeName }))
    .mutation(async ({ ctx, input }) => {
      clusterRefuses(ctx.engine.mode);
      if (!ctx.engine.nodes().some((n) => n.name === input.name)) {
        throw new TRPCError({ code: 'NOT_FOUND', message: `no node named ${input.name}` });
      }
      await ctx.engine.disconnect(input.name);
      return { ok: true as const };
    }),
});
