import { getRuntime } from '@/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Liveness and freshness: 200 while every node relisted within the PLEG threshold, else 503. */
export async function GET(): Promise<Response> {
  const podscope = await getRuntime();
  const health = podscope.engine.health();
  return Response.json(health, {
    status: health.ok ? 200 : 503,
    headers: { 'cache-control': 'no-store' },
  });
}
