/**
 * Limits the browser's tRPC client and the server share. The client never batches more calls
 * than this into one request; the server's cap (PODSCOPE_TRPC_MAX_BATCH) may not go below it.
 */
export const CLIENT_MAX_BATCH = 8;
