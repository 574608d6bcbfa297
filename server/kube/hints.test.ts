import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podHints, syncErrorsOf } from './hints';

const pod = (status: V1Pod['status'], metadata: V1Pod['metadata'] = {}): V1Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: 'u1', ...metadata },
  spec: { containers: [{ name: 'app' }] },
  status,
});

describe('podHints', () => {
  it('carries the kubelet’s sync errors per container, init and regular, and nothing else', () => {
    const p = pod({
      phase: 'Pending',
      initContainerStatuses: [
        {
          name: 'config',
          image: 'i',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: {
            waiting: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' },
          },
        },
      ],
      containerStatuses: [
        {
          name: 'app',
          image: 'i',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: {
            waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope:1"' },
          },
        },
        {
          name: 'side',
          image: 'i',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { waiting: { reason: 'PodInitializing' } },
        },
        {
          name: 'ok',
          image: 'i',
          imageID: '',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: new Date() } },
        },
      ],
    });
    expect(podHints(p)).toEqual({
      syncErrors: {
        config: { reason: 'CreateContainerConfigError', message: 'secret "db" not found' },
        app: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope:1"' },
      },
    });
  });

  it('gives the deletionTimestamp in epoch ms and marks terminal phases', () => {
    const h = podHints(
      pod({ phase: 'Failed' }, { deletionTimestamp: new Date('2026-03-01T10:00:05Z') }),
    );
    expect(h).toEqual({
      deletionTimestamp: Date.parse('2026-03-01T10:00:05Z'),
      podIsTerminal: true,
    });
    expect(podHints(pod({ phase: 'Running' }))).toEqual({});
  });

  it('clips an over-long message from the API server', () => {
    const long = 'x'.repeat(10_000);
    const p = pod({
      containerStatuses: [
        {
          name: 'app',
          image: 'i',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { waiting: { reason: 'ErrImagePull', message: long } },
        },
      ],
    });
    expect(syncErrorsOf(p)?.app?.message.length).toBeLessThanOrEqual(2049);
  });
});
