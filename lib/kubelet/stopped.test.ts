import { describe, expect, it } from 'vitest';
import { ANNOTATIONS } from './runtime';
import { inferStoppedPod } from './stopped';
import { readySandbox, record, runtimeOf } from './testing/fixtures';

const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'uid1' }, spec: { containers: [] } };
const stoppedSandbox = readySandbox({ state: 'notready' });
const exited = (name: string, exitCode: number, over = {}) =>
  record({ name, state: 'exited', exitCode, startedAt: 1000, finishedAt: 2000, ...over });

describe('inferStoppedPod', () => {
  it('newest sandbox NOTREADY and every container exited: stopped, with exit codes', () => {
    const r = inferStoppedPod(
      pod,
      runtimeOf([exited('a', 143), exited('b', 137)], [stoppedSandbox]),
    );
    expect(r).toEqual({
      exitCodes: { a: 143, b: 137 },
      bySignal: true,
      deletionAnnotation: false,
      deletionTimestamp: false,
    });
  });
  it('a program that exits 0 on SIGTERM is still stopped, just not "by signal"', () => {
    expect(inferStoppedPod(pod, runtimeOf([exited('a', 0)], [stoppedSandbox]))?.bySignal).toBe(
      false,
    );
  });
  it('a ready sandbox (a plain crash), a running container, or no container: not stopped', () => {
    expect(inferStoppedPod(pod, runtimeOf([exited('a', 1)]))).toBeUndefined();
    expect(
      inferStoppedPod(pod, runtimeOf([record({ name: 'a', state: 'running' })], [stoppedSandbox])),
    ).toBeUndefined();
    expect(inferStoppedPod(pod, runtimeOf([], [stoppedSandbox]))).toBeUndefined();
    expect(inferStoppedPod(pod, runtimeOf([], []))).toBeUndefined();
  });
  it("deletion cues: the kubelet's annotation, the API server's deletionTimestamp", () => {
    const annotated = exited('a', 143, {
      annotations: { [ANNOTATIONS.podDeletionGracePeriod]: '30' },
    });
    expect(inferStoppedPod(pod, runtimeOf([annotated], [stoppedSandbox]))?.deletionAnnotation).toBe(
      true,
    );
    const deleting = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: new Date(5) } };
    expect(
      inferStoppedPod(deleting, runtimeOf([exited('a', 143)], [stoppedSandbox]))?.deletionTimestamp,
    ).toBe(true);
  });
});

describe('generateAPIPodStatus on a stopped pod', () => {
  it('no CrashLoopBackOff; phase why stoppedUnknown; with the deletion annotation the pod is terminal', async () => {
    const { generateAPIPodStatus } = await import('./status');
    const spec = {
      ...pod,
      spec: { restartPolicy: 'Always' as const, containers: [{ name: 'a', image: 'x' }] },
    };
    const plain = generateAPIPodStatus({
      pod: spec,
      runtime: runtimeOf([exited('a', 143, { restartCount: 3 })], [stoppedSandbox]),
      now: 60_000,
    });
    expect(plain.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(143);
    expect(plain.nextRestartAt).toBeUndefined();
    expect(plain.why.phase.id).toBe('phase.stoppedUnknown');
    const annotated = generateAPIPodStatus({
      pod: spec,
      runtime: runtimeOf(
        [exited('a', 143, { annotations: { [ANNOTATIONS.podDeletionGracePeriod]: '30' } })],
        [stoppedSandbox],
      ),
      now: 60_000,
    });
    expect(annotated.status.phase).toBe('Failed');
  });
});
