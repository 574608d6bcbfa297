import { describe, expect, it } from 'vitest';
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { PodView } from '@/lib/timeline/state';
import { containerTone, nextRestartOf, resolveEntity, layerOfId, timeOf } from './entity';
import { emptyState } from '@/lib/timeline/state';

const looping: V1ContainerStatus = {
  name: 'worker',
  image: 'busybox',
  imageID: '',
  ready: false,
  restartCount: 3,
  state: {
    waiting: {
      reason: 'CrashLoopBackOff',
      message: 'back-off 1m20s restarting failed container=worker pod=p_ns(u)',
    },
  },
  lastState: {
    terminated: {
      exitCode: 1,
      reason: 'Error',
      finishedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 10)),
    },
  },
};
const pod = (extra: Partial<PodView> = {}): PodView => ({
  uid: 'u',
  name: 'p',
  namespace: 'ns',
  node: 'n',
  specSource: 'inferred',
  spec: { restartPolicy: 'Always', initContainers: [], containers: ['worker'], hostNetwork: false },
  status: { phase: 'Running', containerStatuses: [looping] },
  why: { phase: { id: 'x' }, conditions: {}, containers: {} },
  createdAt: 0,
  ...extra,
});

describe('entities', () => {
  it('prefers the recorded next restart, else reads the back-off from the kubelet message', () => {
    expect(nextRestartOf(pod({ nextRestartAt: { worker: 42 } }), 'worker', looping)).toBe(42);
    expect(nextRestartOf(pod(), 'worker', looping)).toBe(Date.UTC(2026, 0, 1, 0, 0, 10) + 80_000);
    expect(nextRestartOf(pod(), 'worker', { ...looping, state: { running: {} } })).toBeUndefined();
  });

  it('gives failing waits and non-zero exits the failed tone', () => {
    expect(containerTone(looping)).toBe('failed');
    expect(containerTone({ ...looping, state: { waiting: { reason: 'ContainerCreating' } } })).toBe(
      'pending',
    );
    expect(containerTone({ ...looping, state: { terminated: { exitCode: 0 } } })).toBe('done');
    expect(containerTone(undefined)).toBe('unknown');
  });

  it('resolves data-ids to nodes, pods and containers', () => {
    const state = {
      ...emptyState(),
      nodes: {
        n: {
          name: 'n',
          endpoint: '',
          runtimeConditions: [],
          conditions: [],
          why: {},
          health: { connected: true },
          pods: { u: pod() },
        },
      },
    };
    expect(resolveEntity(state, 'n')?.layer).toBe('node');
    expect(resolveEntity(state, 'u')?.layer).toBe('pod');
    expect(resolveEntity(state, 'u/worker')?.layer).toBe('container');
    expect(resolveEntity(state, 'u/nope')).toBeUndefined();
    expect(layerOfId(state, 'gone-pod')).toBe('pod');
    expect(timeOf('2026-01-01T00:00:10Z')).toBe(Date.UTC(2026, 0, 1, 0, 0, 10));
    expect(timeOf('nonsense')).toBeUndefined();
  });
});
