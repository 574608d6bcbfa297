/**
 * tRPC is initialised once, here; this file exports only the building blocks routers may use.
 * @see https://trpc.io/docs/server/routers
 */
import { initTRPC } from '@trpc/server';
import { transformer } from '@/lib/timeline/codec';
import type { Context } from './context';

const t = initTRPC.context<Context>().create({
  // Dates as RFC 3339 strings, revived by key: no per-value type metadata on the wire.
  transformer,
  sse: {
    // A keep-alive comment every 10 s keeps proxies from closing an idle stream.
    ping: { enabled: true, intervalMs: 10_000 },
    client: { reconnectAfterInactivityMs: 30_000 },
  },
  errorFormatter({ shape }) {
    return shape;
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
