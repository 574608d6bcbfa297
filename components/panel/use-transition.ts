'use client';
import { useMemo } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import type { Layer } from '@/components/data/entity';
import { findBySeq, lastTransition, type Transition } from './transitions';

/** The selected entity's last state change at or before the cursor. */
export function useLastTransition(id: string, layer: Layer): Transition | undefined {
  const { buffered, t } = useCluster();
  return useMemo(() => {
    if (!buffered) return undefined;
    const { buffer } = buffered;
    const events = buffer.events;
    return lastTransition(events, buffer.countUntil(t), id, layer, (seq) => findBySeq(events, seq));
  }, [buffered, t, id, layer]);
}
