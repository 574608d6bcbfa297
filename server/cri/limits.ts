/**
 * The CRI client's deadline and message limit, in a module of their own so that configuration
 * (server/config.ts, the agent's) can name them without loading gRPC.
 */

/** Deadline of each CRI call unless configured (PODSCOPE_CRI_TIMEOUT_MS). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The kubelet's CRI message size limit. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
