import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../i18n/format';
import { MSG_INIT_ASSUMED_COMPLETED } from './convert';
import { explainEviction } from './eviction';
import { backoffFromMessage, explainContainerState } from './explain-container';
import { explainPhase } from './explain-phase';
import { DEFAULT_NODE_TIMINGS } from './timings';
import {
  failedState,
  runningState,
  succeededState,
  waitingState,
  waitingStateWithLastTermination,
} from './testing/fixtures';

const status = (over: Partial<V1ContainerStatus>): V1ContainerStatus => ({
  name: 'app',
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  ...over,
});

describe('explainPhase', () => {
  const pod = (restartPolicy: string, init: boolean): V1Pod => ({
    spec: {
      ...(init ? { initContainers: [{ name: 'init' }] } : {}),
      containers: [{ name: 'a' }, { name: 'b' }],
      restartPolicy,
    },
  });
  it.each([
    [
      'Always',
      false,
      [runningState('a'), runningState('b')],
      'phase.running.allStarted',
      { running: 2, total: 2 },
    ],
    [
      'Always',
      false,
      [runningState('a'), waitingState('b')],
      'phase.pending.waiting',
      { waiting: 1, names: ['b'] },
    ],
    ['Always', false, [runningState('a')], 'phase.pending.notStarted', { unknown: 1, total: 2 }],
    [
      'Always',
      false,
      [failedState('a'), waitingStateWithLastTermination('b')],
      'phase.running.someRestartable',
      { restartable: 2, stopped: 2, restartPolicy: 'Always' },
    ],
    [
      'Never',
      false,
      [succeededState('a'), failedState('b')],
      'phase.failed.notRestartable',
      { failed: 1, stopped: 2 },
    ],
    [
      'OnFailure',
      false,
      [succeededState('a'), succeededState('b')],
      'phase.succeeded.allSucceeded',
      { succeeded: 2 },
    ],
    [
      'Always',
      true,
      [runningState('init')],
      'phase.pending.initPending',
      { pending: 1, names: ['init'] },
    ],
    [
      'Never',
      true,
      [failedState('init')],
      'phase.failed.initNotRestartable',
      { name: 'init', exitCode: -1 },
    ],
  ] as const)('restartPolicy %s (init: %s) → %s', (policy, init, statuses, id, params) => {
    const e = explainPhase(pod(policy, init), [...statuses], false, false);
    expect(e).toMatchObject({ id, params, rule: 'pkg/kubelet/kubelet_pods.go getPhase' });
  });
  it('names the restart policy in plain words', () => {
    const e = explainPhase(
      pod('Always', false),
      [failedState('a'), succeededState('b')],
      false,
      false,
    );
    expect(formatExplanation(e, 'en')).toBe(
      'Running: restartPolicy is Always, so the kubelet keeps the pod Running while it restarts 2 exited containers (of 2 exited).',
    );
  });
});

describe('explainContainerState', () => {
  it.each([
    [status({ state: { waiting: { reason: 'ContainerCreating' } } }), 'container.waiting.creating'],
    [
      status({ state: { waiting: { reason: 'PodInitializing' } } }),
      'container.waiting.podInitializing',
    ],
    [status({ state: { waiting: {} } }), 'container.waiting.created'],
    [
      status({
        state: { waiting: {} },
        lastState: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' } },
      }),
      'container.waiting.lostWhileRunning',
    ],
    [
      status({
        state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image' } },
      }),
      'container.waiting.image',
    ],
    [
      status({
        state: {
          waiting: { reason: 'CreateContainerConfigError', message: 'secret "x" not found' },
        },
      }),
      'container.waiting.syncError',
    ],
    [status({ state: { running: {} }, started: true, ready: true }), 'container.running.ready'],
    [status({ state: { running: {} }, started: true, ready: false }), 'container.running.notReady'],
    [status({ state: { running: {} }, started: false }), 'container.running.notStarted'],
    [
      status({ state: { terminated: { exitCode: 0, reason: 'Completed' } } }),
      'container.terminated.completed',
    ],
    [
      status({ state: { terminated: { exitCode: 2, reason: 'Error' } } }),
      'container.terminated.error',
    ],
    [
      status({ state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } }),
      'container.terminated.oomKilled',
    ],
    [
      status({
        state: { terminated: { exitCode: 128, reason: 'StartError', message: 'exec: not found' } },
      }),
      'container.terminated.startError',
    ],
    [
      status({ state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown' } } }),
      'container.terminated.statusUnknown',
    ],
    [
      status({
        state: {
          terminated: { exitCode: 0, reason: 'Completed', message: MSG_INIT_ASSUMED_COMPLETED },
        },
      }),
      'container.terminated.initAssumedCompleted',
    ],
    [status({}), 'container.unknown'],
  ])('%# → %s', (s, id) => {
    expect(explainContainerState(s).id).toBe(id);
  });
  it('CrashLoopBackOff reads the window from the message when it is not given', () => {
    const s = status({
      restartCount: 5,
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: 'back-off 2m40s restarting failed container=app pod=web_default(u)',
        },
      },
      lastState: { terminated: { exitCode: 3, reason: 'Error' } },
    });
    expect(explainContainerState(s)).toMatchObject({
      params: { restarts: 5, exitCode: 3, reason: 'Error', backoff: 160, nextRestart: 6 },
    });
    expect(backoffFromMessage('back-off 5m0s restarting failed container=a pod=b')).toBe(300_000);
    expect(backoffFromMessage('nonsense')).toBeUndefined();
    expect(formatExplanation(explainContainerState(s), 'zh-CN')).toBe(
      'CrashLoopBackOff：已重启 5 次，上次运行以退出码 3（Error）结束。kubelet 会等待 160 秒后进行第 6 次重启。',
    );
  });
});

describe('explainEviction', () => {
  it('names the taint and the toleration', () => {
    const e = explainEviction(
      { spec: { containers: [] } },
      { status: 'Unknown', since: 0 },
      DEFAULT_NODE_TIMINGS,
    );
    expect(e).toMatchObject({
      id: 'pod.eviction.due',
      params: { seconds: 300, taint: 'node.kubernetes.io/unreachable' },
    });
    expect(
      explainEviction(
        { spec: { containers: [] } },
        { status: 'True', since: 0 },
        DEFAULT_NODE_TIMINGS,
      ),
    ).toBeUndefined();
  });
});
