import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { containerOf, toTimelineEvent } from './events';

const NOW = Date.parse('2026-03-01T10:05:00Z');

const mirror: V1Pod = {
  metadata: {
    name: 'etcd-node-a',
    namespace: 'kube-system',
    uid: 'api-uid',
    annotations: { 'kubernetes.io/config.mirror': 'static-hash' },
  },
  spec: { nodeName: 'node-a', containers: [] },
};

const ctx = { now: NOW, podByApiUid: (uid: string) => (uid === 'api-uid' ? mirror : undefined) };

const event = (over: Partial<CoreV1Event>): CoreV1Event => ({
  metadata: { name: 'e1', namespace: 'default', uid: 'e-uid', resourceVersion: '5' },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'pod-uid' },
  reason: 'BackOff',
  message: 'Back-off restarting failed container app in pod web',
  type: 'Warning',
  count: 7,
  firstTimestamp: new Date('2026-03-01T10:00:00Z'),
  lastTimestamp: new Date('2026-03-01T10:04:00Z'),
  source: { component: 'kubelet', host: 'node-b' },
  ...over,
});

describe('toTimelineEvent', () => {
  it('ties a pod event to the pod’s node and runtime uid (mirror pods by their static uid), with the container', () => {
    const e = toTimelineEvent(
      event({
        involvedObject: {
          kind: 'Pod',
          name: 'etcd-node-a',
          namespace: 'kube-system',
          uid: 'api-uid',
          fieldPath: 'spec.containers{etcd}',
        },
      }),
      ctx,
    );
    expect(e).toMatchObject({
      kind: 'k8s',
      type: 'Event',
      node: 'node-a',
      podUid: 'static-hash',
      container: 'etcd',
      eventType: 'Warning',
      count: 7,
      t: NOW,
      firstTimestamp: Date.parse('2026-03-01T10:00:00Z'),
      lastTimestamp: Date.parse('2026-03-01T10:04:00Z'),
      source: 'kubelet',
    });
  });

  it('falls back to the reporting host for a pod it does not know', () => {
    expect(toTimelineEvent(event({}), ctx)).toMatchObject({ node: 'node-b', podUid: 'pod-uid' });
  });

  it('ties a node event to that node', () => {
    const e = toTimelineEvent(
      event({
        involvedObject: { kind: 'Node', name: 'node-c', uid: 'node-c' },
        reason: 'NodeNotReady',
        type: 'Normal',
        source: { component: 'node-controller' },
      }),
      ctx,
    );
    expect(e).toMatchObject({
      node: 'node-c',
      eventType: 'Normal',
      reason: 'NodeNotReady',
      source: 'node-controller',
    });
    expect(e).not.toHaveProperty('podUid');
  });

  it('drops events that concern no node', () => {
    const e = toTimelineEvent(
      event({
        involvedObject: { kind: 'Deployment', name: 'web', namespace: 'default' },
        source: { component: 'deployment-controller' },
      }),
      ctx,
    );
    expect(e).toBeUndefined();
  });

  it('reads events.k8s.io-style fields (series, eventTime, reportingComponent) when the core ones are absent', () => {
    const e = toTimelineEvent(
      event({
        count: undefined,
        firstTimestamp: undefined,
        lastTimestamp: undefined,
        source: undefined,
        eventTime: new Date('2026-03-01T10:01:00Z'),
        series: { count: 3, lastObservedTime: new Date('2026-03-01T10:03:00Z') },
        reportingComponent: 'kubelet',
        reportingInstance: 'node-d',
      }),
      ctx,
    );
    expect(e).toMatchObject({
      node: 'node-d',
      count: 3,
      source: 'kubelet',
      firstTimestamp: Date.parse('2026-03-01T10:01:00Z'),
      lastTimestamp: Date.parse('2026-03-01T10:03:00Z'),
    });
  });

  it('clips untrusted strings', () => {
    const e = toTimelineEvent(
      event({ message: 'm'.repeat(100_000), reason: 'r'.repeat(1_000) }),
      ctx,
    );
    expect(e?.message.length).toBeLessThanOrEqual(2049);
    expect(e?.reason.length).toBeLessThanOrEqual(129);
  });
});

describe('containerOf', () => {
  it.each([
    ['spec.containers{app}', 'app'],
    ['spec.initContainers{migrate}', 'migrate'],
    ['spec.ephemeralContainers{debug}', 'debug'],
    ['spec.volumes{x}', undefined],
    [undefined, undefined],
  ])('%s → %s', (path, name) => {
    expect(containerOf(path)).toBe(name);
  });
});
