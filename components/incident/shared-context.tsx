'use client';
/**
 * The saved timeline a read-only view shows (share page, local replay of an imported file).
 * Absent in the live console: components that read it act on the live recording instead.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { TimelineAnnotation } from '@/lib/timeline/file';

export interface SharedTimelineInfo {
  /** Absent when a file is replayed locally without being saved on a server. */
  id?: string;
  title: string;
  notes: string;
  from: number;
  to: number;
  eventCount: number;
  annotations: readonly TimelineAnnotation[];
}

const Ctx = createContext<SharedTimelineInfo | undefined>(undefined);

export function SharedTimelineProvider({
  timeline,
  children,
}: {
  timeline: SharedTimelineInfo;
  children: ReactNode;
}) {
  return <Ctx.Provider value={timeline}>{children}</Ctx.Provider>;
}

export function useSharedTimeline(): SharedTimelineInfo | undefined {
  return useContext(Ctx);
}
