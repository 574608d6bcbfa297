/**
 * The browser's typed tRPC client: queries batched over HTTP, subscriptions over SSE
 * (httpSubscriptionLink reconnects by itself and resumes from the last tracked id).
 */
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
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
        false: httpBatchLink({ url, transformer, maxItems: CLIENT_MAX_BATCH }),
      }),
    ],
  });
}
export type PodscopeClient = ReturnType<typeof createClient>;
