'use client';
/** Reads the walkthroughs' data over tRPC (learn.list, learn.recording), with retry. */
import { TRPCClientError } from '@trpc/client';
import { useCallback, useEffect, useState } from 'react';
import { createClient } from '@/trpc/client';
import type { Recording, WalkthroughSummary } from '@/server/learn/types';

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'notFound' }
  | { status: 'error'; error: string };

let client: ReturnType<typeof createClient> | undefined;
const api = () => (client ??= createClient());

const LOADING = { status: 'loading' } as const;

function useQuery<T>(run: () => Promise<T>, key: string): [Loaded<T>, () => void] {
  const [attempt, setAttempt] = useState(0);
  const current = `${key}#${attempt}`;
  // The answer for one key and attempt; anything else is still loading.
  const [result, setResult] = useState<{ for: string; value: Loaded<T> } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    run().then(
      (data) => live && setResult({ for: current, value: { status: 'ready', data } }),
      (err: unknown) => {
        if (!live) return;
        const code =
          err instanceof TRPCClientError
            ? (err.data as { code?: string } | undefined)?.code
            : undefined;
        setResult({
          for: current,
          value:
            code === 'NOT_FOUND'
              ? { status: 'notFound' }
              : { status: 'error', error: err instanceof Error ? err.message : String(err) },
        });
      },
    );
    return () => {
      live = false;
    };
    // `run` is recreated on every render; `current` names what it fetches.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return [result?.for === current ? result.value : LOADING, retry];
}

export function useWalkthroughList(): [Loaded<WalkthroughSummary[]>, () => void] {
  return useQuery(() => api().learn.list.query(), 'list');
}

export function useRecording(id: string): [Loaded<Recording>, () => void] {
  return useQuery(() => api().learn.recording.query({ id }), `recording:${id}`);
}
