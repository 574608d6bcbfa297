import { withRequestLog } from '@/server/log';
import { getRuntime } from '@/server/runtime';
import { handleImport } from '@/server/timelines';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Uploads a timeline file (JSON or gzip, at most 50 MiB): 201 `{id}`, or 400/413 with located issues. */
export async function POST(req: Request): Promise<Response> {
  return withRequestLog(req, 'timeline import', async () =>
    handleImport((await getRuntime()).timelines, req),
  );
}
