/**
 * A query's result as the pages show it: loading, ready, not found (the server said NOT_FOUND)
 * or failed with a message, plus a retry that shows "loading" again while it runs.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'notFound' }
  | { status: 'error'; error: string };

const LOADING = { status: 'loading' } as const;

/** True for the tRPC error a procedure throws as NOT_FOUND. */
export function isNotFound(err: unknown): boolean {
  return (
    err instanceof TRPCClientError &&
    (err.data as { code?: string } | undefined)?.code === 'NOT_FOUND'
  );
}

export function loaded<T, E>(query: UseQueryResult<T, E>): [Loaded<T>, () => void] {
  const retry = () => void query.refetch();
  if (query.isSuccess) return [{ status: 'ready', data: query.data }, retry];
  // A retry after a failure is loading again, not the old failure.
  if (query.isPending || query.isFetching) return [LOADING, retry];
  const err: unknown = query.error;
  return [
    isNotFound(err)
      ? { status: 'notFound' }
      : { status: 'error', error: err instanceof Error ? err.message : String(err) },
    retry,
  ];
}
