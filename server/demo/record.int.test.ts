/**
 * The demo's recording: the built-in workload on three simulated nodes, through the drivers and
 * the engine, shows what the console's demo is for (a crash loop with rising restarts, an image
 * that will not pull, an OOM kill) — and a second run records the same thing.
 */
import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { eventShape } from '@/server/learn/testing/shape';
import { demoNodeNames, recordDemo, type DemoRecording } from './record';

const MINUTES = 2;

function waitingReasons(r: DemoRecording): Set<string> {
  const out = new Set<string>();
  for (const e of r.events)
    if (e.kind === 'container' && e.type === 'ContainerStateChanged') {
      const reason = e.status?.state?.waiting?.reason ?? e.status?.state?.terminated?.reason;
      if (reason) out.add(reason);
    }
  return out;
}

describe('recordDemo', () => {
  it('records the demo workload on three nodes, the same twice', { timeout: 300_000 }, async () => {
    const r = await recordDemo({ durationMs: MINUTES * 60_000 });
    expect(r.nodes).toEqual(demoNodeNames(3));
    // The workload starts a millisecond after the snapshot (record.ts).
    expect(r.end - r.start).toBe(MINUTES * 60_000 + 1);
    expect(r.events.every((e) => e.t >= r.start && e.t <= r.end)).toBe(true);

    const end = reduceAll(r.initial, r.events);
    expect(Object.keys(end.nodes).sort()).toEqual(r.nodes);
    const reasons = waitingReasons(r);
    for (const reason of ['CrashLoopBackOff', 'ErrImagePull', 'OOMKilled', 'Completed'])
      expect(reasons, reason).toContain(reason);
    const restarts = Object.values(end.nodes)
      .flatMap((n) => Object.values(n.pods))
      .flatMap((p) => p.status.containerStatuses ?? [])
      .map((c) => c.restartCount);
    expect(Math.max(...restarts)).toBeGreaterThanOrEqual(2);

    const again = await recordDemo({ durationMs: MINUTES * 60_000 });
    expect(again.events.map(eventShape)).toEqual(r.events.map(eventShape));
  });
});
