/**
 * The marked period in the live console, shared by the header's buttons and the timeline's
 * markers (two separate subtrees of the console) without a provider: a tiny external store read
 * with useSyncExternalStore. One console per page, so one store.
 */
import { useSyncExternalStore } from 'react';
import type { Marks } from './period';

let marks: Marks = {};
const listeners = new Set<() => void>();

function emit(next: Marks): void {
  marks = next;
  for (const l of listeners) l();
}

export const marksStore = {
  get: (): Marks => marks,
  setStart: (t: number) => emit({ ...marks, start: t }),
  setEnd: (t: number) => emit({ ...marks, end: t }),
  clear: () => emit({}),
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const EMPTY: Marks = {};

export function useMarks(): Marks {
  return useSyncExternalStore(marksStore.subscribe, marksStore.get, () => EMPTY);
}
