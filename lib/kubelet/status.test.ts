import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { backoffNext, newBackoff, recordRestart } from './backoff';
import { generateAPIPodStatus, sortPodIPs, type GenerateAPIPodStatusInput } from './status';
import { readySandbox, record, runtimeOf } from './testing/fixtures';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const pod = (
  spec: Partial<NonNullable<V1Pod['spec']>> = {},
  meta: Partial<NonNullable<V1Pod['metadata']>> = {},
): V1Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: 'uid1', ...meta },
  spec: { containers: [{ name: 'app', image: 'busybox' }], restartPolicy: 'Always', ...spec },
});
const gen = (over: Partial<GenerateAPIPodStatusInput> & { pod: V1Pod }) =>
  generateAPIPodStatus({ runtime: runtimeOf([]), now: T0, ...over });
const cond = (s: V1PodStatus, type: string) => s.conditions?.find((c) => c.type === type);

describe('generateAPIPodStatus', () => {
  it('a running pod: Running, every kubelet condition True in upstream order, IP from the ready sandbox', () => {
    const r = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app', startedAt: T0 - 5000 })]),
    });
    expect(r.status.phase).toBe('Running');
    expect(r.status.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['Ready', 'True'],
      ['ContainersReady', 'True'],
      ['PodScheduled', 'True'],
    ]);
    expect(r.status).toMatchObject({
      podIP: '10.0.0.10',
      podIPs: [{ ip: '10.0.0.10' }],
      qosClass: 'BestEffort',
    });
    expect(r.status.startTime).toEqual(new Date(0)); // the sandbox was created at 500 ms; whole seconds
    expect(r.status.containerStatuses?.[0]).toMatchObject({ ready: true, started: true });
    expect(r.why.phase.id).toBe('phase.running.allStarted');
    expect(r.why.conditions.Ready?.id).toBe('condition.ready.true');
    expect(r.why.containers.app?.id).toBe('container.running.ready');
    expect(r.nextRestartAt).toBeUndefined();
    expect(r.evictionDueAt).toBeUndefined();
  });

  it('a crash-looping container: Waiting CrashLoopBackOff, pod still Running, next restart time', () => {
    const exited = record({
      name: 'app',
      state: 'exited',
      exitCode: 1,
      reason: 'Error',
      restartCount: 3,
      startedAt: T0 - 20_000,
      finishedAt: T0 - 10_000,
    });
    const r = gen({ pod: pod(), runtime: runtimeOf([exited]) });
    const app = r.status.containerStatuses?.[0];
    expect(app?.state?.waiting).toEqual({
      reason: 'CrashLoopBackOff',
      message: 'back-off 40s restarting failed container=app pod=web_default(uid1)',
    });
    expect(app?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(app?.restartCount).toBe(3);
    expect(r.status.phase).toBe('Running');
    expect(cond(r.status, 'ContainersReady')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });
    expect(r.nextRestartAt).toEqual({ app: T0 + 30_000 });
    expect(r.why.containers.app).toMatchObject({
      id: 'container.waiting.crashLoop',
      params: { restarts: 3, exitCode: 1, reason: 'Error', backoff: 40, nextRestart: 4 },
    });
    expect(r.why.phase).toMatchObject({
      id: 'phase.running.someRestartable',
      params: { restartable: 1, stopped: 1, restartPolicy: 'Always' },
    });
  });

  it('a back-off the driver recorded is used as is', () => {
    let backoff = newBackoff();
    backoff = recordRestart(
      backoff,
      { podUid: 'uid1', container: 'app' },
      T0 - 100_000,
      T0 - 99_000,
    );
    const exited = record({
      name: 'app',
      state: 'exited',
      exitCode: 1,
      restartCount: 7,
      startedAt: T0 - 20_000,
      finishedAt: T0 - 5_000,
    });
    const r = gen({ pod: pod(), runtime: runtimeOf([exited]), backoff });
    expect(r.nextRestartAt).toEqual({ app: T0 + 5_000 });
    expect(r.status.containerStatuses?.[0]?.state?.waiting?.message).toMatch(/^back-off 10s /);
    // the kubelet-style stable key is found first
    const stable = backoffNext(newBackoff(), 'web_default_uid1_app_', 0, T0 - 99_000);
    expect(
      gen({ pod: pod(), runtime: runtimeOf([exited]), backoff: stable }).nextRestartAt,
    ).toEqual({ app: T0 + 5_000 });
  });

  it('a supplied sync error wins: ErrImagePull keeps the pod Pending', () => {
    const r = gen({
      pod: pod(),
      syncErrors: { app: { reason: 'ErrImagePull', message: 'pull access denied' } },
    });
    expect(r.status.phase).toBe('Pending');
    expect(r.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ErrImagePull');
    expect(r.why.containers.app).toMatchObject({
      id: 'container.waiting.image',
      params: { reason: 'ErrImagePull' },
    });
    expect(r.why.phase).toMatchObject({
      id: 'phase.pending.waiting',
      params: { waiting: 1, names: ['app'] },
    });
  });

  it('init containers: Pending with Initialized False while the init container runs; app waits PodInitializing', () => {
    const p = pod({ initContainers: [{ name: 'init' }] });
    const r = gen({ pod: p, runtime: runtimeOf([record({ name: 'init', startedAt: T0 - 1000 })]) });
    expect(r.status.phase).toBe('Pending');
    expect(cond(r.status, 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [init]',
    });
    expect(r.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('PodInitializing');
    expect(r.status.initContainerStatuses?.[0]?.state?.running).toBeDefined();
    expect(r.why.phase).toMatchObject({
      id: 'phase.pending.initPending',
      params: { names: ['init'] },
    });
  });

  it('a terminal phase never goes back: Succeeded is kept when containers reappear', () => {
    const r = gen({
      pod: pod(),
      oldStatus: { phase: 'Succeeded' },
      runtime: runtimeOf([record({ name: 'app' })]),
    });
    expect(r.status.phase).toBe('Succeeded');
    expect(r.why.phase).toMatchObject({
      id: 'phase.kept.terminal',
      params: { phase: 'Succeeded', computed: 'Running' },
    });
  });

  it('phase reason and message are kept while the phase is unchanged', () => {
    const r = gen({
      pod: pod(),
      oldStatus: { phase: 'Running', reason: 'R', message: 'M' },
      runtime: runtimeOf([record({ name: 'app' })]),
    });
    expect(r.status).toMatchObject({ reason: 'R', message: 'M' });
  });

  it('podIsTerminal gives Succeeded/Failed even under restartPolicy Always', () => {
    const done = record({
      name: 'app',
      state: 'exited',
      exitCode: 0,
      reason: 'Completed',
      finishedAt: T0 - 1,
    });
    expect(gen({ pod: pod(), runtime: runtimeOf([done]), podIsTerminal: true }).status.phase).toBe(
      'Succeeded',
    );
    const bad = { ...done, exitCode: 2, reason: 'Error' };
    const r = gen({ pod: pod(), runtime: runtimeOf([bad]), podIsTerminal: true });
    expect(r.status.phase).toBe('Failed');
    expect(cond(r.status, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
    expect(r.nextRestartAt).toBeUndefined();
  });

  it('activeDeadlineSeconds: Failed with DeadlineExceeded once the pod ran that long', () => {
    const r = gen({
      pod: pod({ activeDeadlineSeconds: 30 }),
      oldStatus: { startTime: new Date(T0 - 31_000) },
      runtime: runtimeOf([record({ name: 'app' })]),
    });
    expect(r.status).toMatchObject({
      phase: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
    });
    expect(r.why.phase).toMatchObject({
      id: 'phase.failed.deadlineExceeded',
      params: { seconds: 30 },
    });
  });

  it('a container that vanished while Running: Waiting ContainerCreating with ContainerStatusUnknown, restartCount + 1, pod not Pending', () => {
    const old: V1PodStatus = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          image: 'busybox',
          imageID: '',
          ready: true,
          restartCount: 2,
          state: { running: { startedAt: new Date(T0 - 60_000) } },
        },
      ],
    };
    const r = gen({ pod: pod(), oldStatus: old, runtime: runtimeOf([]) });
    const app = r.status.containerStatuses?.[0];
    expect(app).toMatchObject({
      restartCount: 3,
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: { terminated: { reason: 'ContainerStatusUnknown', exitCode: 137 } },
    });
    expect(r.status.phase).toBe('Running');
    expect(r.why.containers.app?.id).toBe('container.waiting.creating');
  });

  it('lastTransitionTime is kept while a condition keeps its status and moves when it changes', () => {
    const old: V1PodStatus = {
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: new Date(T0 - 99_000) },
        { type: 'ContainersReady', status: 'False', lastTransitionTime: new Date(T0 - 99_000) },
      ],
    };
    const r = gen({
      pod: pod(),
      oldStatus: old,
      runtime: runtimeOf([record({ name: 'app' })]),
      now: T0 + 1_234,
    });
    expect(cond(r.status, 'Ready')?.lastTransitionTime).toEqual(new Date(T0 - 99_000));
    expect(cond(r.status, 'ContainersReady')?.lastTransitionTime).toEqual(new Date(T0 + 1_000));
  });

  it('the node goes Unknown: Ready is marked False (MarkPodsNotReady) and eviction falls due after 300 s', () => {
    const since = T0 - 10_000;
    const r = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app' })]),
      nodeReady: { status: 'Unknown', since },
    });
    expect(cond(r.status, 'Ready')).toMatchObject({
      status: 'False',
      lastTransitionTime: new Date(since),
    });
    expect(cond(r.status, 'ContainersReady')?.status).toBe('True');
    expect(r.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.nodeNotReady',
      params: { nodeStatus: 'Unknown' },
    });
    expect(r.evictionDueAt).toBe(since + 300_000);
    expect(
      gen({
        pod: pod(),
        nodeReady: { status: 'False', since },
        timings: { notReadyTolerationMs: 60_000 },
      }).evictionDueAt,
    ).toBe(since + 60_000);
    expect(
      gen({ pod: pod(), nodeReady: { status: 'False', since }, timings: { tolerationSeconds: 30 } })
        .evictionDueAt,
    ).toBe(since + 30_000);
  });

  it('the kubelet reports the node NotReady (network not ready): Ready stays as the kubelet computes it, only eviction follows', () => {
    const since = T0 - 10_000;
    const r = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app' })]),
      nodeReady: { status: 'False', since, cause: 'networkNotReady' },
    });
    expect(cond(r.status, 'Ready')?.status).toBe('True');
    expect(r.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.kubeletReportsNodeNotReady',
      params: { cause: 'networkNotReady' },
    });
    expect(r.evictionDueAt).toBe(since + 300_000);
    // A pod the kubelet itself finds not ready keeps the kubelet's reason.
    const unready = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app', state: 'exited', exitCode: 1 })]),
      nodeReady: { status: 'False', since, cause: 'runtimeDown' },
    });
    expect(cond(unready.status, 'Ready')?.status).toBe('False');
    expect(unready.why.conditions.Ready?.id).toBe('condition.ready.containersNotReady');
  });

  it('Unknown after a kubelet-reported NotReady: no pod is marked, unless it came to the node while Unknown (processPod)', () => {
    const since = T0 - 10_000;
    const nodeReady = { status: 'Unknown', since, podsMarked: false } as const;
    const kept = gen({ pod: pod(), runtime: runtimeOf([record({ name: 'app' })]), nodeReady });
    expect(cond(kept.status, 'Ready')?.status).toBe('True');
    expect(kept.why.conditions.Ready?.id).toBe('condition.ready.nodeUnknownNotMarked');
    const bound = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app' })]),
      nodeReady,
      newlyBound: true,
    });
    expect(cond(bound.status, 'Ready')).toMatchObject({
      status: 'False',
      lastTransitionTime: new Date(T0),
    });
    expect(bound.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.markedOnBinding',
      params: { nodeStatus: 'Unknown' },
    });
    // After a True → Unknown the pods are marked whether new or not.
    const marked = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app' })]),
      nodeReady: { status: 'Unknown', since, podsMarked: true },
    });
    expect(marked.why.conditions.Ready?.id).toBe('condition.ready.nodeNotReady');
    expect(cond(marked.status, 'Ready')?.lastTransitionTime).toEqual(new Date(since));
  });

  it('pod tolerations decide the eviction time; a toleration without seconds means never', () => {
    const since = T0;
    const tol = (tolerationSeconds?: number) =>
      pod({
        tolerations: [
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            ...(tolerationSeconds !== undefined ? { tolerationSeconds } : {}),
          },
        ],
      });
    expect(gen({ pod: tol(60), nodeReady: { status: 'Unknown', since } }).evictionDueAt).toBe(
      since + 60_000,
    );
    expect(
      gen({ pod: tol(), nodeReady: { status: 'Unknown', since } }).evictionDueAt,
    ).toBeUndefined();
  });

  it('a sandbox that is not ready: PodReadyToStartContainers False; the old IPs are kept', () => {
    const r = gen({
      pod: pod(),
      oldStatus: { podIPs: [{ ip: '10.1.1.1' }] },
      runtime: runtimeOf([], [readySandbox({ state: 'notready' })]),
    });
    expect(cond(r.status, 'PodReadyToStartContainers')).toMatchObject({
      status: 'False',
      reason: 'PodSandboxNotReady',
    });
    expect(r.status.podIP).toBe('10.1.1.1');
    expect(r.why.conditions.PodReadyToStartContainers?.id).toBe('condition.readyToStart.notReady');
  });

  it('conditions the kubelet does not own are kept, and readiness gates read them', () => {
    const p: V1Pod = {
      ...pod({ readinessGates: [{ conditionType: 'example.com/lb' }] }),
      status: { conditions: [{ type: 'example.com/lb', status: 'False' }] },
    };
    const r = gen({ pod: p, runtime: runtimeOf([record({ name: 'app' })]) });
    expect(r.status.conditions?.[0]).toEqual({ type: 'example.com/lb', status: 'False' });
    expect(cond(r.status, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
    });
    expect(r.why.conditions.Ready).toMatchObject({
      id: 'condition.ready.gatesNotReady',
      params: { gates: ['example.com/lb'] },
    });
  });

  it('PodReadyToStartContainers can be gated off', () => {
    const r = gen({ pod: pod(), gates: { PodReadyToStartContainersCondition: false } });
    expect(cond(r.status, 'PodReadyToStartContainers')).toBeUndefined();
  });

  it('hostNetwork pods take the node IPs; hostIP(s) come from the node', () => {
    const r = gen({
      pod: pod({ hostNetwork: true }),
      runtime: runtimeOf(
        [],
        [readySandbox({ networkMode: 'NODE', network: { ip: '', additionalIps: [] } })],
      ),
      hostIPs: ['192.168.1.5', 'fd00::5'],
    });
    expect(r.status).toMatchObject({
      hostIP: '192.168.1.5',
      podIP: '192.168.1.5',
      podIPs: [{ ip: '192.168.1.5' }, { ip: 'fd00::5' }],
    });
  });

  it('sortPodIPs puts the node family first and keeps one of each', () => {
    expect(sortPodIPs(['fd00::1', '10.0.0.1', '10.0.0.2'])).toEqual(['10.0.0.1', 'fd00::1']);
    expect(sortPodIPs(['10.0.0.1', 'fd00::1'], ['fd00::9'])).toEqual(['fd00::1', '10.0.0.1']);
    expect(sortPodIPs(['garbage', '999.1.1.1'])).toEqual([]);
  });

  it('the result survives JSON (times are Dates truncated to seconds)', () => {
    const r = gen({
      pod: pod(),
      runtime: runtimeOf([record({ name: 'app', startedAt: T0 + 999 })]),
      now: T0 + 999,
    });
    expect(r.status.containerStatuses?.[0]?.state?.running?.startedAt).toEqual(new Date(T0));
    expect(() => JSON.stringify(r)).not.toThrow();
  });
});

describe('generateAPIPodStatus with duplicate or reused names', () => {
  it('duplicate container names in the spec give one status per name, and no exception', () => {
    const p = pod({
      containers: [{ name: 'app' }, { name: 'app' }],
      initContainers: [{ name: 'app' }],
    });
    const r = gen({ pod: p, runtime: runtimeOf([record({ name: 'app' })]) });
    expect(r.status.containerStatuses?.map((s) => s.name)).toEqual(['app']);
    expect(r.status.initContainerStatuses?.map((s) => s.name)).toEqual(['app']);
  });
  it('a reversed clock (finishedAt before startedAt, now before both) still gives a defined status', () => {
    const weird = record({
      name: 'app',
      state: 'exited',
      exitCode: -9,
      startedAt: T0 + 50_000,
      finishedAt: T0 + 10_000,
      restartCount: -4,
    });
    const r = gen({ pod: pod(), runtime: runtimeOf([weird]), now: T0 });
    expect(r.status.containerStatuses?.[0]?.restartCount).toBe(0);
    expect(r.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(-9);
    expect(['Running', 'Pending']).toContain(r.status.phase);
  });
});

describe('generateAPIPodStatus: the sync after an exit', () => {
  const exited = record({
    id: 'c2',
    name: 'app',
    state: 'exited',
    exitCode: 1,
    reason: 'Error',
    restartCount: 3,
    startedAt: T0 - 20_000,
    finishedAt: T0 - 1_000,
  });
  const runningBefore: V1PodStatus = {
    phase: 'Running',
    containerStatuses: [
      {
        name: 'app',
        image: 'busybox',
        imageID: '',
        ready: true,
        restartCount: 3,
        containerID: 'containerd://c2',
        state: { running: { startedAt: new Date(T0 - 20_000) } },
      },
    ],
  };

  it('shows the exit as Terminated first (kubectl: Error), as the kubelet writes status before recording the back-off', () => {
    const r = gen({ pod: pod(), runtime: runtimeOf([exited]), oldStatus: runningBefore });
    expect(r.status.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    });
    expect(r.nextRestartAt).toBeUndefined();
  });

  it('shows CrashLoopBackOff from the next sync on', () => {
    const first = gen({ pod: pod(), runtime: runtimeOf([exited]), oldStatus: runningBefore });
    const next = gen({ pod: pod(), runtime: runtimeOf([exited]), oldStatus: first.status });
    expect(next.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(next.nextRestartAt?.app).toBeGreaterThan(T0);
  });

  it('finds the previous status among regular statuses first, then init ones', () => {
    const [before] = runningBefore.containerStatuses ?? [];
    if (!before) throw new Error('fixture has a status');
    const asInit = gen({
      pod: pod(),
      runtime: runtimeOf([exited]),
      oldStatus: { phase: 'Running', initContainerStatuses: [before] },
    });
    expect(asInit.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(1);
    const shown = asInit.status.containerStatuses?.[0];
    if (!shown) throw new Error('a status was made');
    // The same name in both lists: the regular one (already showing the exit) decides.
    const both = gen({
      pod: pod(),
      runtime: runtimeOf([exited]),
      oldStatus: { phase: 'Running', containerStatuses: [shown], initContainerStatuses: [before] },
    });
    expect(both.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff');
  });

  it('a back-off the driver reported ends at the last finish plus the reported window', () => {
    const first = gen({ pod: pod(), runtime: runtimeOf([exited]), oldStatus: runningBefore });
    const next = gen({
      pod: pod(),
      runtime: runtimeOf([exited]),
      oldStatus: first.status,
      syncErrors: {
        app: {
          reason: 'CrashLoopBackOff',
          message: 'back-off 1m20s restarting failed container=app pod=web_default(uid1)',
        },
      },
    });
    expect(next.status.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(next.nextRestartAt).toEqual({ app: T0 - 1_000 + 80_000 });
  });
});

describe('generateAPIPodStatus: a pod that finished on its own', () => {
  it('explains a succeeded Job by its containers, not by deletion', () => {
    const done = record({
      name: 'app',
      state: 'exited',
      exitCode: 0,
      reason: 'Completed',
      startedAt: T0 - 5_000,
      finishedAt: T0 - 1_000,
    });
    const r = gen({
      pod: pod({ restartPolicy: 'Never' }),
      runtime: runtimeOf([done]),
      podIsTerminal: true,
    });
    expect(r.status.phase).toBe('Succeeded');
    expect(r.why.phase.id).not.toMatch(/terminal/);
  });

  it('keeps the terminal wording when only termination explains the phase', () => {
    const running = record({
      name: 'app',
      state: 'exited',
      exitCode: 0,
      reason: 'Completed',
      startedAt: T0 - 5_000,
      finishedAt: T0 - 1_000,
    });
    const r = gen({
      pod: pod({ restartPolicy: 'Always' }),
      runtime: runtimeOf([running]),
      podIsTerminal: true,
    });
    expect(r.status.phase).toBe('Succeeded');
    expect(r.why.phase.id).toMatch(/terminal/);
  });
});
