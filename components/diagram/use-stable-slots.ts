'use client';
import { useState } from 'react';
import type { ClusterState } from '@/lib/timeline/state';
import { assignSlots, EMPTY_SLOTS, type SlotBook } from './slots';

/**
 * Pod slots that survive re-renders: each new state is slotted against the previous book.
 * (The "adjust state while rendering" pattern: assignSlots returns the same book when nothing
 * moved, so this settles in one pass.)
 */
export function useStableSlots(state: ClusterState): SlotBook {
  const [memo, setMemo] = useState<{ state: ClusterState; book: SlotBook }>(() => ({
    state,
    book: assignSlots(EMPTY_SLOTS, state),
  }));
  if (memo.state !== state) {
    const book = assignSlots(memo.book, state);
    setMemo({ state, book });
    return book;
  }
  return memo.book;
}
