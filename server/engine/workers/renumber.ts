/**
 * Gives a worker's events their server-wide seqs. A worker numbers the events of its node
 * engines with a counter of its own; the recorder hands out the real seqs. Causes are mapped
 * with them: a cause names an earlier event of the same worker, normally of the same report —
 * one it no longer can (the event was dropped, or went in an earlier report) loses its cause
 * rather than pointing at an unrelated event.
 */
import type { TimelineEvent } from '@/lib/timeline/events';

export function renumber(
  events: readonly TimelineEvent[],
  nextSeq: () => number,
  keep: (e: TimelineEvent) => boolean = () => true,
): TimelineEvent[] {
  const seqs = new Map<number, number>();
  const out: TimelineEvent[] = [];
  for (const e of events) {
    if (!keep(e)) continue;
    const seq = nextSeq();
    seqs.set(e.seq, seq);
    let renumbered: TimelineEvent = { ...e, seq };
    if (e.cause !== undefined) {
      const cause = seqs.get(e.cause);
      if (cause === undefined) {
        const { cause: _lost, ...rest } = renumbered;
        renumbered = rest;
      } else renumbered.cause = cause;
    }
    out.push(renumbered);
  }
  return out;
}
