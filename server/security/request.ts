/**
 * The viewer of a request that passed the request proxy: the identity it stamped
 * (identity.ts), judged by this process's reviewer in kubernetes mode (kube/service.ts); and the
 * checks the plain HTTP routes (export, import) make with it, answered like tRPC's.
 */
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { VisibilityFilter } from '@/lib/timeline/visibility';
import { getConfig } from '@/server/config';
import type { PodscopeRuntime } from '@/server/runtime';
import { identityOf } from './identity';
import { kubeAuth } from './kube/service';
import {
  forbidden,
  MAY_NOT_CHANGE,
  MAY_NOT_SCRAPE,
  requireSomeRead,
  viewerFor,
  type Viewer,
} from './viewer';

export function requestViewer(headers: { get(name: string): string | null }): Viewer {
  return viewerFor(identityOf(headers), kubeAuth(getConfig())?.reviewer);
}

/**
 * Runs `fn` for a viewer allowed what `need` says — `read` (some namespace), `mutate` (update
 * consoles.podscope.io), `metrics` (get /metrics) — else answers the refusal as JSON.
 */
export async function asViewer(
  req: Request,
  runtime: PodscopeRuntime,
  need: 'read' | 'mutate' | 'metrics',
  fn: (viewer: Viewer) => Promise<Response>,
): Promise<Response> {
  const viewer = requestViewer(req.headers);
  try {
    if (need === 'read')
      await requireSomeRead(viewer, () => VisibilityFilter.namespaces(runtime.engine.snapshot()));
    if (need === 'mutate' && !(await viewer.mayMutate())) throw forbidden(viewer, MAY_NOT_CHANGE);
    if (need === 'metrics' && !(await viewer.mayReadMetrics()))
      throw forbidden(viewer, MAY_NOT_SCRAPE);
  } catch (err) {
    if (!(err instanceof TRPCError)) throw err;
    return Response.json(
      { error: { code: err.code, message: err.message } },
      { status: getHTTPStatusCodeFromError(err), headers: { 'cache-control': 'no-store' } },
    );
  }
  return fn(viewer);
}
