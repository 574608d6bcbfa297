/** One tRPC client for the incident components (queries over HTTP; no subscription here). */
import { createClient, type PodscopeClient } from '@/trpc/client';

let client: PodscopeClient | undefined;

export function incidentClient(): PodscopeClient {
  client ??= createClient();
  return client;
}
