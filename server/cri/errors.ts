/**
 * CriError: every failure of a CRI call, named by endpoint, RPC and gRPC status, so a log line or
 * a UI badge says which node's runtime refused what and why ("CRI ContainerStatus on
 * unix:///run/containerd/containerd.sock: NOT_FOUND (5): an error occurred when try to find
 * container \"abc\": not found").
 */
import { status as GrpcStatus } from '@grpc/grpc-js';

/** gRPC status code → its canonical name (grpc-js keeps only the reverse map as an enum). */
const CODE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(GrpcStatus)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([name, code]) => [code, name]),
);

export function grpcCodeName(code: number): string {
  return CODE_NAMES[code] ?? `CODE_${code}`;
}

export interface CriErrorInit {
  endpoint: string;
  rpc: string;
  code: number;
  details: string;
  cause?: unknown;
}

export class CriError extends Error {
  override name = 'CriError';
  readonly endpoint: string;
  readonly rpc: string;
  /** Numeric gRPC status code (grpc-js `status`). */
  readonly code: number;
  /** Canonical name of `code`, e.g. NOT_FOUND. */
  readonly codeName: string;
  /** The server's (or the transport's) own words. */
  readonly details: string;

  constructor(init: CriErrorInit) {
    const codeName = grpcCodeName(init.code);
    super(
      `CRI ${init.rpc} on ${init.endpoint}: ${codeName} (${init.code}): ${init.details}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.endpoint = init.endpoint;
    this.rpc = init.rpc;
    this.code = init.code;
    this.codeName = codeName;
    this.details = init.details;
  }

  /** The runtime does not implement the RPC (containerd 1.6 for GetContainerEvents). */
  get unimplemented(): boolean {
    return this.code === Number(GrpcStatus.UNIMPLEMENTED);
  }

  get notFound(): boolean {
    return this.code === Number(GrpcStatus.NOT_FOUND);
  }

  get deadlineExceeded(): boolean {
    return this.code === Number(GrpcStatus.DEADLINE_EXCEEDED);
  }

  /** The endpoint could not be reached at all (no socket, refused, not speaking HTTP/2). */
  get unavailable(): boolean {
    return this.code === Number(GrpcStatus.UNAVAILABLE);
  }
}

interface StatusLike {
  code: number;
  details?: string;
  message?: string;
}

function isStatusLike(err: unknown): err is StatusLike {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number';
}

/** Wraps whatever a grpc-js call rejected with; an existing CriError passes through. */
export function toCriError(err: unknown, endpoint: string, rpc: string): CriError {
  if (err instanceof CriError) return err;
  if (isStatusLike(err)) {
    const details = err.details ?? err.message ?? '';
    return new CriError({ endpoint, rpc, code: err.code, details, cause: err });
  }
  const details = err instanceof Error ? err.message : String(err);
  return new CriError({ endpoint, rpc, code: GrpcStatus.UNKNOWN, details, cause: err });
}
