import { EXPOSITION_CONTENT_TYPE } from '@/server/metrics/registry';
import { getRuntime } from '@/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Prometheus text exposition format. */
export async function GET(): Promise<Response> {
  const podscope = await getRuntime();
  return new Response(await podscope.engine.metrics(), {
    headers: {
      'content-type': EXPOSITION_CONTENT_TYPE,
      'cache-control': 'no-store',
    },
  });
}
