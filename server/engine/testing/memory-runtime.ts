/**
 * An in-memory runtime and an in-memory store for engine unit tests (no sockets, no SQLite):
 * one pod whose container crashed again and was not restarted (no kubelet).
 */
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import type { EngineStore } from '../recorder';
import type { RuntimeClient } from '../relist/runtime-client';

export function memoryStore(): EngineStore & { events: TimelineEvent[] } {
  const events: TimelineEvent[] = [];
  return {
    events,
    append(batch: readonly UnsequencedEvent[]) {
      const out: TimelineEvent[] = batch.map((e, i) => ({ ...e, seq: events.length + i + 1 }));
      events.push(...out);
      return out;
    },
    latestSeq: () => events.length,
    oldestSeq: () => 1,
    eventsAfter: (seq, limit) => events.filter((e) => e.seq > seq).slice(0, limit),
    range: () => events,
    stateAt: () => reduceAll(emptyState(), events),
    stateAtSeq: (seq) =>
      reduceAll(
        emptyState(),
        events.filter((e) => e.seq <= seq),
      ),
  };
}

export const sandbox: RuntimeSandbox = {
  id: 's1',
  name: 'web-0',
  namespace: 'default',
  uid: 'u1',
  attempt: 0,
  state: 'ready',
  createdAt: 1_000,
  labels: { 'io.kubernetes.pod.uid': 'u1' },
  annotations: {
    'podscope.dev/pod-spec': JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'default', uid: 'u1' },
      spec: { restartPolicy: 'Always', containers: [{ name: 'app', image: 'img' }] },
    }),
  },
  network: { ip: '10.0.0.2', additionalIps: [] },
  networkMode: 'POD',
  inspected: true,
};

/** A container that crashed again and was not restarted (no kubelet): back-off, then nothing. */
export const crashed: RuntimeContainer = {
  id: 'c1',
  sandboxId: 's1',
  name: 'app',
  attempt: 1,
  state: 'exited',
  createdAt: 1_000,
  startedAt: 1_100,
  finishedAt: 2_000,
  exitCode: 1,
  reason: 'Error',
  image: 'img',
  imageRef: 'img',
  restartCount: 1,
  labels: { 'io.kubernetes.pod.uid': 'u1', 'io.kubernetes.container.name': 'app' },
  annotations: { 'io.kubernetes.container.restartCount': '1' },
  inspected: true,
};

/** A runtime holding `sandbox` and `crashed`; its network is ready unless told otherwise. */
export function memoryRuntime(networkReady = true): RuntimeClient {
  return {
    endpoint: 'mem',
    version: () => Promise.resolve({ name: 'mem', version: '1', apiVersion: 'v1' }),
    status: () =>
      Promise.resolve({
        conditions: [
          { type: 'RuntimeReady', status: true, reason: '', message: '' },
          {
            type: 'NetworkReady',
            status: networkReady,
            reason: networkReady ? '' : 'NetworkPluginNotReady',
            message: '',
          },
        ],
      }),
    listPodSandbox: () => Promise.resolve([{ ...sandbox, inspected: false }]),
    listContainers: () => Promise.resolve([{ ...crashed, inspected: false }]),
    podSandboxStatus: () => Promise.resolve(sandbox),
    containerStatus: () => Promise.resolve(crashed),
    containerEvents: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
    }),
    close: () => undefined,
  };
}
