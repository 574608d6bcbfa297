import { getRuntime } from '@/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Prometheus text exposition format. */
export async function GET(): Promise<Response> {
  const podscope = await getRuntime();
  return new Response(podscope.engine.metrics(), {
    headers: {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
      'cache-control': 'no-store',
    },
  });
}
