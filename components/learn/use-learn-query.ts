'use client';
/** Reads the walkthroughs' data over tRPC (learn.list, learn.recording), with retry. */
import { useQuery } from '@tanstack/react-query';
import { loaded, type Loaded } from '@/trpc/loaded';
import { useTRPC } from '@/trpc/react';
import type { Recording, WalkthroughSummary } from './types';

export type { Loaded };

export function useWalkthroughList(): [Loaded<WalkthroughSummary[]>, () => void] {
  const trpc = useTRPC();
  return loaded(useQuery(trpc.learn.list.queryOptions()));
}

export function useRecording(id: string): [Loaded<Recording>, () => void] {
  const trpc = useTRPC();
  return loaded(useQuery(trpc.learn.recording.queryOptions({ id })));
}
