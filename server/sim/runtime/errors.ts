/**
 * SimRpcError: what a simulated RPC fails with — a gRPC status code and containerd's own
 * wording for the same failure (containerd 1.6 pkg/cri/server/*.go; errdefs.ToGRPC picks the
 * code: a wrapped errdefs.ErrNotFound is NOT_FOUND, a plain error is UNKNOWN).
 */
import { status } from '@grpc/grpc-js';

export class SimRpcError extends Error {
  override name = 'SimRpcError';
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new SimRpcError(status.NOT_FOUND, message);
export const unknown = (message: string) => new SimRpcError(status.UNKNOWN, message);
export const invalid = (message: string) => new SimRpcError(status.INVALID_ARGUMENT, message);
