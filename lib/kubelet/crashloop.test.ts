import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { backoffKey, backoffNext, containerBackoff, newBackoff } from './backoff';
import { inferCrashLoops } from './crashloop';
import { record, runtimeOf } from './testing/fixtures';

const pod = (restartPolicy = 'Always'): V1Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }], restartPolicy },
});
const exited = (over: Partial<Parameters<typeof record>[0]> = {}) =>
  record({
    name: 'app',
    state: 'exited',
    exitCode: 1,
    reason: 'Error',
    startedAt: 90_000,
    finishedAt: 100_000,
    restartCount: 3,
    annotations: { 'io.kubernetes.container.hash': 'h1' },
    ...over,
  });

describe('inferCrashLoops', () => {
  it('after 3 restarts the window is 40s from the last exit, with the kubelet message', () => {
    const got = inferCrashLoops({ pod: pod(), runtime: runtimeOf([exited()]), now: 110_000 });
    expect(got.app).toEqual({
      reason: 'CrashLoopBackOff',
      message: 'back-off 40s restarting failed container=app pod=web_default(u1)',
      nextRestartAt: 140_000,
      backoffMs: 40_000,
      source: 'restartCount',
    });
  });
  it('the window ends exactly at finishedAt + backoff', () => {
    expect(
      inferCrashLoops({ pod: pod(), runtime: runtimeOf([exited()]), now: 139_999 }).app,
    ).toBeDefined();
    expect(
      inferCrashLoops({ pod: pod(), runtime: runtimeOf([exited()]), now: 140_000 }).app,
    ).toBeUndefined();
  });
  it('the first exit is restarted at once (no back-off entry yet)', () => {
    expect(
      inferCrashLoops({
        pod: pod(),
        runtime: runtimeOf([exited({ restartCount: 0 })]),
        now: 100_001,
      }),
    ).toEqual({});
  });
  it('a window is capped at 5m0s', () => {
    const got = inferCrashLoops({
      pod: pod(),
      runtime: runtimeOf([exited({ restartCount: 12 })]),
      now: 100_001,
    });
    expect(got.app?.message).toBe(
      'back-off 5m0s restarting failed container=app pod=web_default(u1)',
    );
  });
  it('uses a supplied back-off state entry for the container key', () => {
    let state = newBackoff();
    const key = backoffKey({ name: 'web', namespace: 'default', uid: 'u1' }, 'app', 'h1');
    state = backoffNext(state, key, 0, 0);
    state = backoffNext(state, key, 50_000, 60_000); // 20 s, moved at 60 s
    const got = inferCrashLoops({
      pod: pod(),
      runtime: runtimeOf([exited()]),
      backoff: state,
      now: 110_000,
    });
    expect(got.app).toMatchObject({ backoffMs: 20_000, nextRestartAt: 120_000, source: 'state' });
  });
  it('maxContainerRestartPeriod 60 s: the reconstructed window stops at 1m0s', () => {
    const got = inferCrashLoops({
      pod: pod(),
      runtime: runtimeOf([exited({ restartCount: 12 })]),
      backoff: containerBackoff(60_000),
      now: 100_001,
    });
    expect(got.app).toMatchObject({
      message: 'back-off 1m0s restarting failed container=app pod=web_default(u1)',
      backoffMs: 60_000,
      nextRestartAt: 160_000,
    });
  });
  it('maxContainerRestartPeriod 60 s: a 200 s run (past 2 × max, within 600 s) keeps the back-off; a 601 s run resets it', () => {
    const input = (startedAt: number, finishedAt: number) => ({
      pod: pod(),
      runtime: runtimeOf([exited({ startedAt, finishedAt, restartCount: 5 })]),
      backoff: containerBackoff(60_000),
      now: finishedAt + 1,
    });
    expect(inferCrashLoops(input(0, 200_000)).app).toMatchObject({ backoffMs: 60_000 });
    expect(inferCrashLoops(input(0, 601_000))).toEqual({});
  });
  it('a run longer than 2×max resets the back-off: restart at once', () => {
    const got = inferCrashLoops({
      pod: pod(),
      runtime: runtimeOf([exited({ startedAt: 0, finishedAt: 700_000 })]),
      now: 700_001,
    });
    expect(got).toEqual({});
  });
  it('restartPolicy Never and OnFailure-with-success are not restarted', () => {
    expect(
      inferCrashLoops({ pod: pod('Never'), runtime: runtimeOf([exited()]), now: 100_001 }),
    ).toEqual({});
    expect(
      inferCrashLoops({
        pod: pod('OnFailure'),
        runtime: runtimeOf([exited({ exitCode: 0 })]),
        now: 100_001,
      }),
    ).toEqual({});
    expect(
      inferCrashLoops({ pod: pod('OnFailure'), runtime: runtimeOf([exited()]), now: 100_001 }).app,
    ).toBeDefined();
  });
  it('init containers: a failure loops, a success is done', () => {
    const failing = record({
      name: 'init',
      state: 'exited',
      exitCode: 2,
      startedAt: 90_000,
      finishedAt: 100_000,
      restartCount: 1,
    });
    expect(
      inferCrashLoops({ pod: pod(), runtime: runtimeOf([failing]), now: 105_000 }).init?.backoffMs,
    ).toBe(10_000);
    const done = { ...failing, exitCode: 0 };
    expect(inferCrashLoops({ pod: pod(), runtime: runtimeOf([done]), now: 105_000 })).toEqual({});
  });
  it('a newer attempt (created or running) means no back-off; a terminal pod is never restarted', () => {
    const newer = record({ name: 'app', state: 'created', createdAt: 120_000 });
    expect(
      inferCrashLoops({ pod: pod(), runtime: runtimeOf([exited(), newer]), now: 121_000 }),
    ).toEqual({});
    expect(
      inferCrashLoops({
        pod: pod(),
        runtime: runtimeOf([exited()]),
        now: 110_000,
        podIsTerminal: true,
      }),
    ).toEqual({});
  });
  it('an uninspected record (no finishedAt) is not judged', () => {
    expect(
      inferCrashLoops({
        pod: pod(),
        runtime: runtimeOf([exited({ finishedAt: undefined })]),
        now: 110_000,
      }),
    ).toEqual({});
  });
});
