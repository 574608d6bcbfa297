/**
 * Which entities just changed: motion means an event happened, so an entity pulses once for a
 * derived event in the last moments before the cursor, keyed by that event's seq so a new event
 * pulses again and a re-render does not.
 */
import { entityId } from '@/lib/timeline/events';
import type { TimelineBuffer } from '@/components/data/timeline-buffer';

export function recentChanges(
  buffer: Pick<TimelineBuffer, 'events' | 'countUntil'>,
  t: number,
  windowMs: number,
): Map<string, number> {
  const out = new Map<string, number>();
  const events = buffer.events;
  for (let i = buffer.countUntil(t) - 1; i >= 0; i--) {
    const e = events[i];
    if (!e || e.t <= t - windowMs) break;
    if (e.kind !== 'container' && e.kind !== 'pod' && e.kind !== 'node') continue;
    if (e.type === 'PodUpdated' || e.type === 'NodeUpdated') continue;
    const id = entityId(e);
    if (!out.has(id)) out.set(id, e.seq);
  }
  return out;
}
