'use client';
/**
 * The browser's one tRPC client and one react-query cache, provided to every page under the
 * locale layout. Components ask for queries with `useTRPC()` (`useQuery(trpc.x.queryOptions())`)
 * and for the plain client with `useTRPCClient()` (the live cluster source, which subscribes).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import { createClient, type AppRouter, type PodscopeClient } from './client';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * What the console asks is either immutable (a recording, a saved timeline) or polled on
 * purpose (`refetchInterval`), so no refetch on focus; a failure is shown at once with a retry
 * button rather than retried behind the user's back.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}

let browser: { queries: QueryClient; trpc: PodscopeClient } | undefined;

/** Fresh ones per server render (requests must not share a cache); one pair for the browser's life. */
function clients(): { queries: QueryClient; trpc: PodscopeClient } {
  const made = () => ({ queries: makeQueryClient(), trpc: createClient() });
  if (typeof window === 'undefined') return made();
  return (browser ??= made());
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [{ queries: client, trpc: trpcClient }] = useState(clients);
  return (
    <QueryClientProvider client={client}>
      <TRPCProvider trpcClient={trpcClient} queryClient={client}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
