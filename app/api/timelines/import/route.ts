import { withRequestLog } from '@/server/log';
import { getRuntime } from '@/server/runtime';
import { asViewer } from '@/server/security/request';
import { handleImport, importGate } from '@/server/timelines';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Uploads a timeline file (JSON or gzip, at most 50 MiB — DEFAULT_LIMITS.maxBytes): 201 `{id}`,
 * 400/413 with located issues, 429 while PODSCOPE_IMPORT_CONCURRENCY imports run, 507 over quota,
 * 403 for a signed-in user who may not change the console.
 */
export async function POST(req: Request): Promise<Response> {
  return withRequestLog(req, 'timeline import', async () => {
    const podscope = await getRuntime();
    return asViewer(req, podscope, 'mutate', () =>
      handleImport(podscope.timelines, req, importGate()),
    );
  });
}
