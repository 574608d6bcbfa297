import { withRequestLog } from '@/server/log';
import { getRuntime } from '@/server/runtime';
import { handleExport } from '@/server/timelines';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Downloads a saved timeline as a file (FORMAT.md); `?gzip=1` compresses it. */
export async function GET(
  req: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await params;
  return withRequestLog(req, 'timeline export', async () =>
    handleExport((await getRuntime()).timelines, id, new URL(req.url)),
  );
}
