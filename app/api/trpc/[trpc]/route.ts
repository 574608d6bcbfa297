import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { requestLogger } from '@/server/log';
import { compressibleEventStream } from '@/server/trpc/compress';
import { appRouter } from '@/server/trpc/root';
import { getRuntime } from '@/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(req: Request): Promise<Response> {
  const podscope = await getRuntime();
  const { log, requestId } = requestLogger(req);
  // cluster.watch's event stream is gzipped by the server like any text response, flushed per
  // message (server/trpc/compress.ts).
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => ({ ...podscope.context, log }),
    responseMeta: () => ({ headers: { 'x-request-id': requestId } }),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        log.error(
          { path: path ?? '?', err: error.cause ?? error },
          `trpc ${path ?? '?'}: ${error.message}`,
        );
    },
  });
  return compressibleEventStream(response);
}

export { handler as GET, handler as POST };
