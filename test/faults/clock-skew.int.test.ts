/**
 * A node whose clock is far ahead of or behind the server's. The runtime stamps its records with
 * its own clock (created/started/finished); the engine observes with the server's. Derived state
 * must stay sane: no container that "finished in an hour" or "started -3600 s ago", the kubelet's
 * crash-loop back-off still shown as the node's kubelet runs it, and the timeline ordered by seq
 * with observation times that never go backwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerEvent, CriEvent, PodEvent } from '@/lib/timeline/events';
import { pod, soundness, startRig, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const HOUR = 3_600_000;
const ms = (d: Date | string | undefined) => (d === undefined ? undefined : new Date(d).getTime());

async function crashLoop(skewMs: number): Promise<Rig> {
  // The engine observes only (no hints from the driver): it infers the back-off from the CRI, as
  // it must for a real kubelet's node.
  const r = (rig = await startRig({ skewMs, hints: false }));
  await r.driver.apply(pod('crashy', ['sh', '-c', 'sleep 2; exit 3']));
  await r.run(90_000);
  return r;
}

function check(r: Rig, skewMs: number): void {
  const events = r.events();
  const s = soundness(events, r.engine.snapshot());
  expect(s.gaps).toEqual([]);
  expect(s.duplicates).toEqual([]);
  expect(s.replayMatches).toBe(true);
  // Observation times are the server's and never go backwards with seq.
  events.forEach((e, i) => i > 0 && expect(e.t).toBeGreaterThanOrEqual(events[i - 1]?.t ?? 0));
  // The CRI events keep the runtime's own timestamps, unaltered: they are the raw facts.
  const raw = events.filter((e): e is CriEvent => e.kind === 'cri' && e.runtimeTime !== undefined);
  expect(raw.length).toBeGreaterThan(0);
  expect(raw.some((e) => Math.abs((e.runtimeTime ?? 0) - e.t - skewMs) < 2_000)).toBe(true);

  const mine = events.filter(
    (e): e is ContainerEvent => e.kind === 'container' && e.status !== undefined,
  );
  expect(mine.length).toBeGreaterThan(0);
  for (const e of mine) {
    // A derived status never claims a moment after it was observed, nor one long before the pod.
    const st = e.status?.state;
    for (const t of [
      ms(st?.running?.startedAt),
      ms(st?.terminated?.startedAt),
      ms(st?.terminated?.finishedAt),
    ]) {
      if (t === undefined) continue;
      expect(t).toBeLessThanOrEqual(e.t);
      expect(e.t - t).toBeLessThan(120_000);
    }
  }

  // The back-off as the node's kubelet runs it: running → terminated → CrashLoopBackOff → running,
  // restartCount rising, and each predicted restart within the kubelet's 5 min cap of now.
  const states = mine
    .filter((e) => e.type === 'ContainerStateChanged')
    .map(
      (e) =>
        `${e.to}:${e.status?.state?.waiting?.reason ?? e.status?.state?.terminated?.reason ?? ''}`,
    );
  const running = states.indexOf('running:');
  const terminated = states.indexOf('terminated:Error', running);
  const backoff = states.indexOf('waiting:CrashLoopBackOff', terminated);
  const again = states.indexOf('running:', backoff);
  const seq = states.join(' → ');
  expect(running, seq).toBeGreaterThanOrEqual(0);
  expect(terminated, seq).toBeGreaterThan(running);
  expect(backoff, seq).toBeGreaterThan(terminated);
  expect(again, seq).toBeGreaterThan(backoff);
  const counts = mine.map((e) => e.status?.restartCount ?? 0);
  expect(Math.max(...counts)).toBeGreaterThanOrEqual(2);

  for (const e of events.filter(
    (e): e is PodEvent => e.kind === 'pod' && e.type === 'PodUpdated',
  )) {
    for (const due of Object.values(e.patch?.nextRestartAt ?? {})) {
      expect(due - e.t).toBeGreaterThan(-1_000);
      expect(due - e.t).toBeLessThanOrEqual(300_000);
    }
  }
}

describe('a runtime whose clock is wrong', () => {
  it('an hour ahead of the server', async () => {
    const r = await crashLoop(HOUR);
    check(r, HOUR);
    // Said once, in the log and as a metric.
    expect(r.logs.filter((l) => l.includes('clock'))).toEqual([
      "node-a: the runtime's clock is 1 h 0 min 0 s ahead of the server's; derived times are corrected by -3600 s",
    ]);
    expect(await r.engine.metrics()).toMatch(
      /podscope_node_clock_offset_seconds\{node="node-a"\} 3600\n/,
    );
  }, 60_000);

  it('an hour behind the server', async () => {
    const r = await crashLoop(-HOUR);
    check(r, -HOUR);
    expect(r.logs.filter((l) => l.includes('clock'))).toHaveLength(1);
    expect(r.logs.find((l) => l.includes('clock'))).toMatch(
      /1 h 0 min \d s behind the server's; derived times are corrected by \+360\d s/,
    );
  }, 60_000);

  it('in step with the server: nothing corrected, nothing said', async () => {
    const r = await crashLoop(0);
    check(r, 0);
    expect(r.logs.filter((l) => l.includes('clock'))).toEqual([]);
  }, 60_000);

  it('a day ahead, and the same pods on a correct clock for comparison', async () => {
    const skewed = await crashLoop(24 * HOUR);
    const restartsSkewed = Math.max(
      ...skewed
        .events()
        .flatMap((e) => (e.kind === 'container' && e.status ? [e.status.restartCount] : [0])),
    );
    check(skewed, 24 * HOUR);
    await skewed.close();
    const straight = await crashLoop(0);
    check(straight, 0);
    const restarts = Math.max(
      ...straight
        .events()
        .flatMap((e) => (e.kind === 'container' && e.status ? [e.status.restartCount] : [0])),
    );
    expect(restartsSkewed).toBe(restarts);
  }, 90_000);
});
