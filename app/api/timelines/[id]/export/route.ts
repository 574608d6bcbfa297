import { withRequestLog } from '@/server/log';
import { getRuntime } from '@/server/runtime';
import { asViewer } from '@/server/security/request';
import { visibleTimeline } from '@/server/security/visible';
import { handleExport } from '@/server/timelines';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Downloads a saved timeline as a file (FORMAT.md); `?gzip=1` compresses it. A signed-in user's
 * file holds only the namespaces they may read.
 */
export async function GET(
  req: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await params;
  return withRequestLog(req, 'timeline export', async () => {
    const podscope = await getRuntime();
    const { timelines } = podscope;
    return asViewer(req, podscope, 'read', async (viewer) => {
      const url = new URL(req.url);
      if (
        (await viewer.seesAll()) ||
        !/^[A-Za-z0-9_-]{1,64}$/.test(id) ||
        !(await timelines.exists(id))
      )
        return handleExport(timelines, id, url);
      return handleExport(
        timelines,
        id,
        url,
        await visibleTimeline(viewer, await timelines.get(id)),
      );
    });
  });
}
