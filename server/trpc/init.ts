/**
 * tRPC is initialised once, here; this file exports only the building blocks routers may use.
 * @see https://trpc.io/docs/server/routers
 */
import { initTRPC } from '@trpc/server';
import { transformer } from '@/lib/timeline/codec';
import { VisibilityFilter } from '@/lib/timeline/visibility';
import { forbidden, MAY_NOT_CHANGE, requireSomeRead } from '@/server/security/viewer';
import type { Context } from './context';

/** Absolute file paths (two or more segments) replaced by `<path>`. */
export function redactPaths(message: string): string {
  return message.replace(/(^|[\s"'(=:])\/*(\/[^\s"'():/]+){2,}\/?/g, '$1<path>');
}

const t = initTRPC.context<Context>().create({
  // Dates as RFC 3339 strings, revived by key: no per-value type metadata on the wire.
  transformer,
  sse: {
    // A keep-alive comment every 10 s keeps proxies from closing an idle stream.
    ping: { enabled: true, intervalMs: 10_000 },
    client: { reconnectAfterInactivityMs: 30_000 },
  },
  // An unexpected error's message may name files on the server (a database path, a socket):
  // answers carry none (issue 17); the server log has the whole message.
  errorFormatter({ shape, error }) {
    if (error.code !== 'INTERNAL_SERVER_ERROR') return shape;
    return { ...shape, message: redactPaths(shape.message) };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/**
 * Reads cluster data: refused to a signed-in user who may read no namespace the console shows
 * (server/security/viewer.ts); what they may read is filtered by the procedure itself
 * (server/security/visible.ts).
 */
export const readProcedure = t.procedure.use(async ({ ctx, next }) => {
  await requireSomeRead(ctx.viewer, () => VisibilityFilter.namespaces(ctx.engine.snapshot()));
  return next();
});

/** Changes the console (nodes, saved timelines, imports): `update consoles.podscope.io`. */
export const mutationProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (!(await ctx.viewer.mayMutate())) throw forbidden(ctx.viewer, MAY_NOT_CHANGE);
  return next();
});
export const createCallerFactory = t.createCallerFactory;
