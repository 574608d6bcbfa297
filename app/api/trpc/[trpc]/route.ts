import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getConfig } from '@/server/config';
import { requestLogger } from '@/server/log';
import { importGate, busyMessage } from '@/server/timelines/gate';
import { compressibleEventStream } from '@/server/trpc/compress';
import {
  bodyLimit,
  callsImport,
  finishResponse,
  procedurePaths,
  refuseRequest,
  trpcError,
  withBodyLimit,
} from '@/server/trpc/guard';
import { appRouter } from '@/server/trpc/root';
import { getRuntime } from '@/server/runtime';
import { requestViewer } from '@/server/security/request';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(req: Request): Promise<Response> {
  const { limits } = getConfig();
  // Only JSON, batches within the cap, bodies within their limit (server/trpc/guard.ts).
  const paths = procedurePaths(new URL(req.url));
  const refusal = refuseRequest(req, paths, limits.trpcMaxBatch);
  if (refusal) return refusal;
  // Imports share a bound with the upload route: each may hold 50 MiB while it runs.
  let release: (() => void) | undefined;
  if (callsImport(paths)) {
    release = importGate().tryEnter();
    if (!release)
      return trpcError(429, 'TOO_MANY_REQUESTS', -32029, busyMessage(limits.importConcurrency));
    req.signal.addEventListener('abort', release, { once: true });
  }
  try {
    const podscope = await getRuntime();
    const { log, requestId } = requestLogger(req);
    // cluster.watch's event stream is gzipped by the server like any text response, flushed per
    // message (server/trpc/compress.ts).
    const response = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: withBodyLimit(req, bodyLimit(paths)),
      router: appRouter,
      maxBatchSize: limits.trpcMaxBatch,
      createContext: () => ({ ...podscope.context, log, viewer: requestViewer(req.headers) }),
      responseMeta: () => ({ headers: { 'x-request-id': requestId } }),
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          log.error(
            { path: path ?? '?', err: error.cause ?? error },
            `trpc ${path ?? '?'}: ${error.message}`,
          );
      },
    });
    return finishResponse(compressibleEventStream(response), release);
  } catch (err) {
    release?.();
    throw err;
  }
}

export { handler as GET, handler as POST };
