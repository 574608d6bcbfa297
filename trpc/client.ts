/**
 * The browser's typed tRPC client: queries batched over HTTP, subscriptions over SSE
 * (httpSubscriptionLink reconnects by itself and resumes from the last tracked id).
 *
 * Batches are answered as a stream (JSON lines, `trpc-accept: application/jsonl`): each call's
 * answer is written as soon as it is ready, so a batch of large pages (up to the batch cap times
 * the range byte budget) is never held whole by the server or waited for as one body.
 */
import {
  createTRPCClient,
  httpBatchStreamLink,
  httpSubscriptionLink,
  splitLink,
} from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { transformer } from '@/lib/timeline/codec';
import { CLIENT_MAX_BATCH } from '@/lib/transport';
import type { AppRouter } from '@/server/trpc/root';

export type { AppRouter };

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export function createClient(baseUrl = '') {
  const url = `${baseUrl}/api/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url, transformer }),
        false: httpBatchStreamLink({ url, transformer, maxItems: CLIENT_MAX_BATCH }),
      }),
    ],
  });
}
export type PodscopeClient = ReturnType<typeof createClient>;
