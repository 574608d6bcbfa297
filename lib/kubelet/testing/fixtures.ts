/**
 * Test fixtures mirroring the helpers of upstream's kubelet tests (pkg/kubelet/kubelet_pods_test.go
 * and pkg/kubelet/status/generate_test.go): runningState, waitingStateWithLastTermination, … so the
 * ported tables read like the originals. Test-only; not exported from index.ts.
 */
import type { V1Container, V1ContainerStatus, V1PodCondition } from '@kubernetes/client-node';
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from '../runtime';

const base = (name: string): V1ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
});

export const waitingState = (name: string): V1ContainerStatus => waitingStateWithReason(name, '');
export const waitingStateWithReason = (name: string, reason: string): V1ContainerStatus => ({
  ...base(name),
  state: { waiting: { reason } },
});
export const waitingStateWithLastTermination = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { waiting: {} },
  lastState: { terminated: { exitCode: 0 } },
});
export const waitingStateWithNonZeroTermination = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { waiting: {} },
  lastState: { terminated: { exitCode: -1 } },
});
export const RAC_MESSAGE = 'The container is removed because RestartAllContainers in place';
export const waitingStateWithRestartingAllContainers = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { waiting: { reason: 'RestartingAllContainers', message: RAC_MESSAGE } },
  lastState: {
    terminated: { reason: 'RestartingAllContainers', message: RAC_MESSAGE, exitCode: 137 },
  },
});
export const runningState = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { running: {} },
});
export const startedState = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { running: {} },
  started: true,
});
export const stoppedState = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { terminated: { exitCode: 0 } },
});
export const succeededState = (name: string): V1ContainerStatus => ({
  ...base(name),
  state: { terminated: { exitCode: 0 } },
});
export const failedState = (name: string): V1ContainerStatus => failedStateWithExitCode(name, -1);
export const failedStateWithExitCode = (name: string, exitCode: number): V1ContainerStatus => ({
  ...base(name),
  state: { terminated: { exitCode } },
});

/** generate_test.go helpers. */
export const getReadyStatus = (name: string): V1ContainerStatus => ({ ...base(name), ready: true });
export const getNotReadyStatus = (name: string): V1ContainerStatus => ({
  ...base(name),
  ready: false,
});
export const getStartedStatus = (name: string): V1ContainerStatus => ({
  ...base(name),
  started: true,
});
export const getNotStartedStatus = (name: string): V1ContainerStatus => ({
  ...base(name),
  started: false,
});
export const getPodCondition = (
  type: string,
  status: string,
  reason: string,
  message: string,
): V1PodCondition => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

export const sidecar = (name: string): V1Container => ({ name, restartPolicy: 'Always' });

/** A runtime container record with sensible defaults. */
export const record = (over: Partial<RuntimeContainer> & { name: string }): RuntimeContainer => ({
  id: over.name,
  sandboxId: 'sb1',
  attempt: 0,
  state: 'running',
  createdAt: 1000,
  image: '',
  imageRef: '',
  restartCount: 0,
  labels: {},
  annotations: {},
  inspected: true,
  ...over,
});

export const readySandbox = (over: Partial<RuntimeSandbox> = {}): RuntimeSandbox => ({
  id: 'sb1',
  name: 'p',
  namespace: 'ns',
  uid: 'uid1',
  attempt: 0,
  state: 'ready',
  createdAt: 500,
  labels: {},
  annotations: {},
  network: { ip: '10.0.0.10', additionalIps: [] },
  inspected: true,
  ...over,
});

export const runtimeOf = (
  containers: RuntimeContainer[],
  sandboxes: RuntimeSandbox[] = [readySandbox()],
): RuntimePodStatus => ({
  uid: 'uid1',
  name: 'p',
  namespace: 'ns',
  sandboxes,
  containers,
});

export const waitingWithLastTerminationUnknown = (
  name: string,
  restartCount: number,
): V1ContainerStatus => ({
  ...base(name),
  state: { waiting: { reason: 'ContainerCreating' } },
  lastState: {
    terminated: {
      reason: 'ContainerStatusUnknown',
      message:
        'The container could not be located when the pod was deleted.  The container used to be Running',
      exitCode: 137,
    },
  },
  restartCount,
});
export const withRestartCount = (
  s: V1ContainerStatus,
  restartCount: number,
): V1ContainerStatus => ({ ...s, restartCount });
