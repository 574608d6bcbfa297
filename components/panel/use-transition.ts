'use client';
import { useMemo } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import type { Layer } from '@/components/data/entity';
import { findBySeq, lastTransition, type Transition } from './transitions';

/** The selected entity's last state change at or before the cursor. */
export function useLastTransition(id: string, layer: Layer): Transition | undefined {
  const { buffer, version, t } = useCluster();
  return useMemo(() => {
    if (!buffer) return undefined;
    const events = buffer.events;
    return lastTransition(events, buffer.countUntil(t), id, layer, (seq) => findBySeq(events, seq));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buffer, version, t, id, layer]);
}
