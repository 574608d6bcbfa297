import { getRuntime } from '@/server/runtime';
import { identityOf } from '@/server/security/identity';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Liveness and freshness: 200 while every node relisted within the PLEG threshold, else 503.
 * It answers without signing in (the manifests' probes carry no token), and then says only
 * `{"ok": …}`; a signed-in request (or any on loopback without a token) gets the nodes' ages too.
 */
export async function GET(req: Request): Promise<Response> {
  const podscope = await getRuntime();
  const health = podscope.engine.health();
  const body = identityOf(req.headers) ? health : { ok: health.ok };
  return Response.json(body, {
    status: health.ok ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  });
}
