/**
 * GetContainerEvents that stalls (the stream stays open and carries nothing) or drops (ends
 * with UNAVAILABLE): the engine falls back to polling, and changes still reach the timeline
 * within a relist period; the stream takes over again once it delivers. Real time throughout:
 * the stream, the relist loop and the runtime's kubelet run on their own timers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pod, soundness, startRig, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const RELIST_MS = 200;
const FULL_RELIST_MS = 3_000;

/**
 * Seen from the runtime: a container of the pod has a CRI id. (The kubelet stand-in's hints show a
 * pod it syncs before the runtime has a sandbox for it — Pending, ContainerCreating — which is not
 * what these tests time.)
 */
const seen = (r: Rig, name: string) =>
  Object.values(r.engine.snapshot().nodes['node-a']?.pods ?? {}).some(
    (p) => p.name === name && (p.status.containerStatuses ?? []).some((c) => !!c.containerID),
  );

/** Applies a pod and returns how long (wall ms) until the engine has recorded it. */
async function latencyOf(r: Rig, name: string, limitMs: number): Promise<number> {
  await r.driver.apply(pod(name, ['sleep', 'infinity']));
  const t0 = Date.now();
  while (!seen(r, name)) {
    if (Date.now() - t0 > limitMs) throw new Error(`${name} not recorded within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - t0;
}

async function waitFor(check: () => boolean, what: string, ms: number): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function streaming(): Promise<Rig> {
  const r = (rig = await startRig({
    realTime: true,
    sim: { eventsMode: 'stream' },
    timings: { relistMs: RELIST_MS, fullRelistMs: FULL_RELIST_MS },
  }));
  r.watcher.start();
  await latencyOf(r, 'first', 5_000);
  await waitFor(() => r.watcher.mode === 'events', 'the event stream to deliver', 5_000);
  return r;
}

function expectSound(r: Rig): void {
  const s = soundness(r.events(), r.engine.snapshot());
  expect(s.duplicates).toEqual([]);
  expect(s.gaps).toEqual([]);
  expect(s.badCauses).toEqual([]);
  expect(s.replayMatches).toBe(true);
}

describe('GetContainerEvents', () => {
  it('while it delivers, a change is recorded at once (the stream is the hint to relist)', async () => {
    const r = await streaming();
    expect(await latencyOf(r, 'quick', 2_000)).toBeLessThan(FULL_RELIST_MS);
    expect(r.events().some((e) => e.kind === 'cri' && e.source === 'events')).toBe(true);
    expectSound(r);
  }, 30_000);

  it('stalls: the full relist finds what the stream missed and falls back to polling; then changes arrive within a relist period', async () => {
    const r = await streaming();
    r.sim.faults.update({ events: 'stall' });
    // The first change after the stall waits for the slow full relist at most.
    expect(await latencyOf(r, 'unannounced', FULL_RELIST_MS + 2_000)).toBeLessThan(
      FULL_RELIST_MS + 1_000,
    );
    await waitFor(() => r.watcher.mode === 'polling', 'the fall-back to polling', 2_000);
    expect(r.logs).toContain(
      'node-a: polling (stalled: GetContainerEvents missed changes a full relist found)',
    );
    expect(await r.engine.metrics()).toMatch(
      /podscope_event_stream_fallbacks_total\{node="node-a",reason="stalled"\} 1/,
    );
    // From now on every change is picked up by polling.
    for (const name of ['polled-1', 'polled-2', 'polled-3']) {
      expect(await latencyOf(r, name, 3_000)).toBeLessThan(RELIST_MS * 4);
    }
    // The stream recovers: its next notice switches back to events.
    r.sim.faults.update({ events: 'normal' });
    await latencyOf(r, 'announced', 3_000);
    await waitFor(() => r.watcher.mode === 'events', 'the stream to take over again', 3_000);
    expectSound(r);
  }, 30_000);

  it('drops: the broken stream falls back to polling at once; changes arrive within a relist period; the stream is reopened', async () => {
    const r = await streaming();
    r.sim.dropEventStreams();
    await waitFor(() => r.watcher.mode === 'polling', 'the fall-back to polling', 2_000);
    expect(
      r.logs.some((l) =>
        /^node-a: polling \(event stream broke: CRI GetContainerEvents on \S+: UNAVAILABLE \(14\)/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(await r.engine.metrics()).toMatch(
      /podscope_event_stream_fallbacks_total\{node="node-a",reason="event stream broke"\} 1/,
    );
    for (const name of ['polled-1', 'polled-2']) {
      expect(await latencyOf(r, name, 3_000)).toBeLessThan(RELIST_MS * 4);
    }
    // Reopened after 1 s; the next notice switches back.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await latencyOf(r, 'after-reopen', 3_000);
    await waitFor(() => r.watcher.mode === 'events', 'the stream to take over again', 3_000);
    expectSound(r);
  }, 30_000);
});
