import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { updatePodStatusProbes } from './prober';
import {
  failedState,
  runningState,
  sidecar,
  succeededState,
  waitingState,
} from './testing/fixtures';

const pod: V1Pod = {
  spec: {
    initContainers: [{ name: 'init' }, sidecar('side')],
    containers: [{ name: 'app' }, { name: 'web' }],
  },
};

describe('updatePodStatusProbes', () => {
  it('without probe results a running container is started and ready; others are neither', () => {
    const out = updatePodStatusProbes(pod, {
      initContainerStatuses: [],
      containerStatuses: [runningState('app'), waitingState('web')],
    });
    expect(out.containerStatuses.map((s) => [s.name, s.started, s.ready])).toEqual([
      ['app', true, true],
      ['web', false, false],
    ]);
  });
  it('a failing readiness result keeps a started container unready', () => {
    const out = updatePodStatusProbes(
      pod,
      { initContainerStatuses: [], containerStatuses: [runningState('app')] },
      { app: { readiness: false } },
    );
    expect(out.containerStatuses[0]).toMatchObject({ started: true, ready: false });
  });
  it('a startup probe that has not succeeded leaves the container not started and not ready', () => {
    const out = updatePodStatusProbes(
      pod,
      { initContainerStatuses: [], containerStatuses: [runningState('app')] },
      { app: { startup: false, readiness: true } },
    );
    expect(out.containerStatuses[0]).toMatchObject({ started: false, ready: false });
  });
  it('a regular init container is ready only after exit 0; a sidecar follows the regular rules', () => {
    const out = updatePodStatusProbes(pod, {
      initContainerStatuses: [succeededState('init'), runningState('side')],
      containerStatuses: [],
    });
    expect(out.initContainerStatuses.map((s) => [s.name, s.started, s.ready])).toEqual([
      ['init', false, true],
      ['side', true, true],
    ]);
    const failed = updatePodStatusProbes(pod, {
      initContainerStatuses: [failedState('init')],
      containerStatuses: [],
    });
    expect(failed.initContainerStatuses[0]?.ready).toBe(false);
  });
});
