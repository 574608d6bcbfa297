import { EXPOSITION_CONTENT_TYPE } from '@/server/metrics/registry';
import { getRuntime } from '@/server/runtime';
import { asViewer } from '@/server/security/request';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Prometheus text exposition format. With PODSCOPE_AUTH=kubernetes the scraper's identity needs
 * `get` on the non-resource URL /metrics, as the cluster's own components ask of theirs.
 */
export async function GET(req: Request): Promise<Response> {
  const podscope = await getRuntime();
  return asViewer(
    req,
    podscope,
    'metrics',
    async () =>
      new Response(await podscope.engine.metrics(), {
        headers: {
          'content-type': EXPOSITION_CONTENT_TYPE,
          'cache-control': 'no-store',
        },
      }),
  );
}
