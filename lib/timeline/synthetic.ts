/**
 * A seeded, deterministic stream of realistic timeline events for the store's tests and
 * benchmarks and for the console's 10,000-pod scale view (`syntheticCluster`): nodes come up and report conditions, pods are added, their containers are
 * created, start, crash into back-off and restart, pods are deleted and replaced. Batches look
 * like one relist's output. This is a load generator, not a kubelet model: the values are
 * plausible shapes (V1ContainerStatus, PodView, conditions), not derived by lib/kubelet.
 */
import type { V1ContainerStatus, V1NodeCondition, V1PodCondition } from '@kubernetes/client-node';
import type { Explanation } from '@/lib/kubelet/explanation';
import type { TimelineEvent, UnsequencedEvent } from './events';
import { emptyState, type ClusterState, type PodView, type RestartPolicy } from './state';
import { createRandom } from '@/lib/random';

export interface WorkloadOptions {
  seed?: number;
  nodes?: number;
  podsPerNode?: number;
  /** Epoch ms of the first batch. */
  startT?: number;
  /** Timeline time between batches. */
  stepMs?: number;
  /** Events per batch are drawn uniformly from this range (a batch can overshoot by one step). */
  batchMin?: number;
  batchMax?: number;
}

type Stage = 'new' | 'creating' | 'running' | 'backoff' | 'terminating';

interface SimPod {
  uid: string;
  name: string;
  node: string;
  policy: RestartPolicy;
  containers: string[];
  stage: Stage;
  restarts: number;
  generation: number;
}

/** Uniform draws in [0, 1) from the project's seeded generator (lib/random.ts). */
const rng = (seed: number): (() => number) => createRandom(seed).next;

const why = (id: string, params: Record<string, string | number>, rule: string): Explanation => ({
  id,
  params,
  rule,
  inputs: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v])),
});

const IMAGES = [
  'registry.k8s.io/pause:3.10',
  'docker.io/library/nginx:1.27',
  'ghcr.io/podscope/worker:0.4.1',
];

export class SyntheticWorkload {
  private readonly random: () => number;
  private readonly nodeNames: string[];
  private readonly pods: SimPod[] = [];
  private readonly opts: Required<WorkloadOptions>;
  private t: number;
  private started = false;
  private podCounter = 0;

  constructor(options: WorkloadOptions = {}) {
    this.opts = {
      seed: 1,
      nodes: 8,
      podsPerNode: 12,
      startT: Date.UTC(2025, 0, 1),
      stepMs: 1_000,
      batchMin: 50,
      batchMax: 300,
      ...options,
    };
    this.random = rng(this.opts.seed);
    this.t = this.opts.startT;
    this.nodeNames = Array.from(
      { length: this.opts.nodes },
      (_, i) => `node-${String(i).padStart(3, '0')}`,
    );
    for (const node of this.nodeNames)
      for (let i = 0; i < this.opts.podsPerNode; i++) this.pods.push(this.newPod(node));
  }

  /** Timeline time of the next batch. */
  get now(): number {
    return this.t;
  }

  /** One relist's worth of events, all observed at the same time. */
  nextBatch(): UnsequencedEvent[] {
    const out: UnsequencedEvent[] = [];
    if (!this.started) {
      this.started = true;
      for (const node of this.nodeNames) this.nodeAdded(node, out);
    }
    const target =
      this.opts.batchMin +
      Math.floor(this.random() * (this.opts.batchMax - this.opts.batchMin + 1));
    while (out.length < target) {
      if (this.random() < 0.04) this.nodeHeartbeat(this.pick(this.nodeNames), out);
      else this.step(this.pick(this.pods), out);
    }
    this.t += this.opts.stepMs;
    return out;
  }

  /**
   * Every node added and every pod added and running, all at once (a large cluster as it looks
   * when an observer joins it); the ordinary stream of `nextBatch()` continues from there.
   */
  startAll(): UnsequencedEvent[] {
    const out: UnsequencedEvent[] = [];
    if (!this.started) {
      this.started = true;
      for (const node of this.nodeNames) this.nodeAdded(node, out);
    }
    for (const pod of this.pods) {
      if (pod.stage !== 'new') continue;
      // One event a pod, already running (cheap enough for a 10,000-pod cluster in a browser).
      const view = this.podView(pod);
      const at = new Date(this.t);
      view.status = {
        ...view.status,
        phase: 'Running',
        conditions: [
          ...(view.status.conditions ?? []),
          ...['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready'].map(
            (type) => ({ type, status: 'True', lastTransitionTime: at }),
          ),
        ],
        containerStatuses: pod.containers.map((c) => this.status(pod, c, 'running')),
        podIP: `10.244.${pod.generation % 250}.${(this.podCounter % 250) + 2}`,
        startTime: at,
      };
      view.why.phase = why(
        'phase.running',
        { running: pod.containers.length },
        'pkg/kubelet/kubelet_pods.go getPhase',
      );
      out.push({
        ...this.base(pod.node),
        kind: 'pod',
        type: 'PodAdded',
        podUid: pod.uid,
        pod: view,
      });
      pod.stage = 'running';
    }
    this.t += this.opts.stepMs;
    return out;
  }

  /** Batches until at least `count` events have been produced. */
  *batches(count: number): Generator<UnsequencedEvent[]> {
    let produced = 0;
    while (produced < count) {
      const b = this.nextBatch();
      produced += b.length;
      yield b;
    }
  }

  private pick<T>(list: readonly T[]): T {
    const item = list[Math.floor(this.random() * list.length)];
    if (item === undefined) throw new Error('synthetic workload: empty list');
    return item;
  }

  private newPod(node: string): SimPod {
    const n = this.podCounter++;
    const count = 1 + Math.floor(this.random() * 3);
    const r = this.random();
    return {
      uid: `6b1f${n.toString(16).padStart(4, '0')}-0d3c-4c43-9a55-${(n * 7919).toString(16).padStart(12, '0')}`,
      name: `web-${n.toString(36)}-${Math.floor(this.random() * 1e5).toString(36)}`,
      node,
      policy: r < 0.8 ? 'Always' : r < 0.9 ? 'OnFailure' : 'Never',
      containers: ['app', 'sidecar', 'metrics'].slice(0, count),
      stage: 'new',
      restarts: 0,
      generation: 0,
    };
  }

  private step(pod: SimPod, out: UnsequencedEvent[]): void {
    switch (pod.stage) {
      case 'new':
        return this.podAdded(pod, out);
      case 'creating':
        return this.containersStarted(pod, out);
      case 'running': {
        const r = this.random();
        if (r < 0.35) return this.crash(pod, out);
        if (r < 0.45) return this.terminate(pod, out);
        return this.probe(pod, out);
      }
      case 'backoff':
        return this.containersStarted(pod, out);
      case 'terminating':
        return this.removed(pod, out);
    }
  }

  private base(node: string) {
    return { t: this.t, node };
  }

  private nodeAdded(node: string, out: UnsequencedEvent[]): void {
    out.push({
      ...this.base(node),
      kind: 'node',
      type: 'NodeAdded',
      endpoint: `unix:///run/podscope/sim/${node}.sock`,
      runtime: { name: 'podscope-sim', version: '0.1.0', apiVersion: 'v1' },
      runtimeConditions: [
        { type: 'RuntimeReady', status: true, reason: '', message: '' },
        { type: 'NetworkReady', status: true, reason: '', message: '' },
      ],
      health: { connected: true, lastRelistAt: this.t },
    });
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      out.push(this.nodeCondition(node, type, type === 'Ready' ? 'True' : 'False'));
    }
  }

  private nodeCondition(node: string, type: string, status: string): UnsequencedEvent {
    const at = new Date(this.t);
    const condition: V1NodeCondition = {
      type,
      status,
      reason:
        type === 'Ready'
          ? status === 'True'
            ? 'KubeletReady'
            : 'KubeletNotReady'
          : `KubeletHas${status === 'True' ? '' : 'No'}${type}`,
      message:
        type === 'Ready'
          ? 'kubelet is posting ready status'
          : `kubelet has ${status === 'True' ? '' : 'no '}${type.replace('Pressure', ' pressure').toLowerCase()}`,
      lastHeartbeatTime: at,
      lastTransitionTime: at,
    };
    return {
      ...this.base(node),
      kind: 'node',
      type: 'NodeConditionChanged',
      condition,
      from: status === 'True' ? 'False' : 'True',
      why: why(
        `node.${type}.${status}`,
        { relistAgeSeconds: 1 },
        'pkg/kubelet/nodestatus/setters.go ReadyCondition',
      ),
    };
  }

  private nodeHeartbeat(node: string, out: UnsequencedEvent[]): void {
    if (this.random() < 0.2) {
      out.push(this.nodeCondition(node, 'MemoryPressure', this.random() < 0.5 ? 'True' : 'False'));
      return;
    }
    out.push({
      ...this.base(node),
      kind: 'node',
      type: 'NodeUpdated',
      health: { connected: true, lastRelistAt: this.t },
    });
  }

  private podCondition(
    pod: SimPod,
    type: string,
    status: 'True' | 'False',
    reason?: string,
  ): UnsequencedEvent {
    const condition: V1PodCondition = {
      type,
      status,
      lastTransitionTime: new Date(this.t),
      ...(reason
        ? { reason, message: `containers with unready status: [${pod.containers.join(' ')}]` }
        : {}),
    };
    return {
      ...this.base(pod.node),
      kind: 'pod',
      type: 'PodConditionChanged',
      podUid: pod.uid,
      condition,
      from: status === 'True' ? 'False' : 'True',
      why: why(
        `condition.${type}.${status}`,
        { ready: status === 'True' ? pod.containers.length : 0, total: pod.containers.length },
        'pkg/kubelet/status/generate.go GeneratePodReadyCondition',
      ),
    };
  }

  private containerId(pod: SimPod, name: string): string {
    return `${pod.uid.replace(/-/g, '')}${name}${pod.generation}${pod.restarts}`
      .padEnd(64, '0')
      .slice(0, 64);
  }

  private status(
    pod: SimPod,
    name: string,
    state: 'waiting' | 'running' | 'terminated',
    reason?: string,
  ): V1ContainerStatus {
    const at = new Date(this.t);
    const image = IMAGES[name.length % IMAGES.length] ?? 'pause';
    return {
      name,
      image,
      imageID: `${image}@sha256:${'ab12'.repeat(16)}`,
      containerID: `containerd://${this.containerId(pod, name)}`,
      ready: state === 'running',
      started: state === 'running',
      restartCount: pod.restarts,
      state:
        state === 'running'
          ? { running: { startedAt: at } }
          : state === 'terminated'
            ? {
                terminated: {
                  exitCode: reason === 'Completed' ? 0 : 1,
                  reason: reason ?? 'Error',
                  startedAt: new Date(this.t - 30_000),
                  finishedAt: at,
                },
              }
            : {
                waiting: {
                  reason: reason ?? 'ContainerCreating',
                  ...(reason === 'CrashLoopBackOff'
                    ? {
                        message: `back-off 10s restarting failed container=${name} pod=${pod.name}_default(${pod.uid})`,
                      }
                    : {}),
                },
              },
      ...(pod.restarts > 0
        ? {
            lastState: {
              terminated: {
                exitCode: 1,
                reason: 'Error',
                startedAt: new Date(this.t - 60_000),
                finishedAt: new Date(this.t - 10_000),
              },
            },
          }
        : {}),
    };
  }

  private podView(pod: SimPod): PodView {
    return {
      uid: pod.uid,
      name: pod.name,
      namespace: 'default',
      node: pod.node,
      specSource: 'annotation',
      spec: {
        restartPolicy: pod.policy,
        initContainers: [],
        containers: pod.containers,
        hostNetwork: false,
        terminationGracePeriodSeconds: 30,
      },
      status: {
        phase: 'Pending',
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: new Date(this.t) },
        ],
        containerStatuses: pod.containers.map((c) => this.status(pod, c, 'waiting')),
        qosClass: 'BestEffort',
        hostIP: '10.0.0.1',
      },
      why: {
        phase: why(
          'phase.pending.waiting',
          { waiting: pod.containers.length },
          'pkg/kubelet/kubelet_pods.go getPhase',
        ),
        conditions: {},
        containers: {},
      },
      createdAt: this.t,
    };
  }

  private podAdded(pod: SimPod, out: UnsequencedEvent[]): void {
    const view = this.podView(pod);
    out.push({ ...this.base(pod.node), kind: 'pod', type: 'PodAdded', podUid: pod.uid, pod: view });
    out.push({
      ...this.base(pod.node),
      kind: 'cri',
      type: 'SandboxReady',
      source: 'relist',
      podUid: pod.uid,
      id: this.containerId(pod, 'sandbox'),
      runtimeTime: this.t - 5,
    });
    out.push(this.podCondition(pod, 'PodReadyToStartContainers', 'True'));
    pod.stage = 'creating';
  }

  private containersStarted(pod: SimPod, out: UnsequencedEvent[]): void {
    const wasBackoff = pod.stage === 'backoff';
    if (wasBackoff) pod.restarts++;
    for (const c of pod.containers) {
      const id = this.containerId(pod, c);
      out.push({
        ...this.base(pod.node),
        kind: 'cri',
        type: 'ContainerCreated',
        source: 'relist',
        podUid: pod.uid,
        container: c,
        id,
        runtimeTime: this.t - 20,
        detail: { state: 'CONTAINER_CREATED', attempt: pod.restarts },
      });
      out.push({
        ...this.base(pod.node),
        kind: 'cri',
        type: 'ContainerStarted',
        source: 'events',
        podUid: pod.uid,
        container: c,
        id,
        runtimeTime: this.t - 10,
        detail: { state: 'CONTAINER_RUNNING', attempt: pod.restarts },
      });
      out.push({
        ...this.base(pod.node),
        kind: 'container',
        type: 'ContainerStateChanged',
        podUid: pod.uid,
        list: 'regular',
        name: c,
        status: this.status(pod, c, 'running'),
        from: 'waiting',
        to: 'running',
        why: why(
          'container.running',
          { restartCount: pod.restarts },
          'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses',
        ),
      });
    }
    if (!wasBackoff) {
      out.push({
        ...this.base(pod.node),
        kind: 'pod',
        type: 'PodPhaseChanged',
        podUid: pod.uid,
        phase: 'Running',
        from: 'Pending',
        why: why(
          'phase.running',
          { running: pod.containers.length },
          'pkg/kubelet/kubelet_pods.go getPhase',
        ),
      });
      out.push({
        ...this.base(pod.node),
        kind: 'pod',
        type: 'PodUpdated',
        podUid: pod.uid,
        patch: {
          status: {
            podIP: `10.244.${pod.generation % 250}.${(this.podCounter % 250) + 2}`,
            startTime: new Date(this.t),
          },
        },
      });
    } else {
      out.push({
        ...this.base(pod.node),
        kind: 'pod',
        type: 'PodUpdated',
        podUid: pod.uid,
        patch: { nextRestartAt: null },
      });
    }
    out.push(this.podCondition(pod, 'ContainersReady', 'True'));
    out.push(this.podCondition(pod, 'Ready', 'True'));
    pod.stage = 'running';
  }

  private probe(pod: SimPod, out: UnsequencedEvent[]): void {
    const c = this.pick(pod.containers);
    out.push({
      ...this.base(pod.node),
      kind: 'container',
      type: 'ContainerStatusChanged',
      podUid: pod.uid,
      list: 'regular',
      name: c,
      status: this.status(pod, c, 'running'),
      why: why(
        'container.ready',
        { probe: 'readiness' },
        'pkg/kubelet/prober/prober_manager.go UpdatePodStatus',
      ),
    });
  }

  private crash(pod: SimPod, out: UnsequencedEvent[]): void {
    const c = this.pick(pod.containers);
    const id = this.containerId(pod, c);
    out.push({
      ...this.base(pod.node),
      kind: 'cri',
      type: 'ContainerExited',
      source: 'events',
      podUid: pod.uid,
      container: c,
      id,
      runtimeTime: this.t - 3,
      detail: { state: 'CONTAINER_EXITED', exit_code: 1, reason: 'Error' },
    });
    out.push({
      ...this.base(pod.node),
      kind: 'container',
      type: 'ContainerStateChanged',
      podUid: pod.uid,
      list: 'regular',
      name: c,
      status: this.status(pod, c, 'terminated', 'Error'),
      from: 'running',
      to: 'terminated',
      why: why(
        'container.terminated',
        { exitCode: 1 },
        'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses',
      ),
    });
    out.push(this.podCondition(pod, 'ContainersReady', 'False', 'ContainersNotReady'));
    out.push(this.podCondition(pod, 'Ready', 'False', 'ContainersNotReady'));
    out.push({
      ...this.base(pod.node),
      kind: 'container',
      type: 'ContainerStateChanged',
      podUid: pod.uid,
      list: 'regular',
      name: c,
      status: this.status(pod, c, 'waiting', 'CrashLoopBackOff'),
      from: 'terminated',
      to: 'waiting',
      why: why(
        'container.waiting.backoff',
        { backoffSeconds: 10 },
        'pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff',
      ),
    });
    out.push({
      ...this.base(pod.node),
      kind: 'pod',
      type: 'PodUpdated',
      podUid: pod.uid,
      patch: { nextRestartAt: { [c]: this.t + 10_000 } },
    });
    pod.stage = 'backoff';
  }

  private terminate(pod: SimPod, out: UnsequencedEvent[]): void {
    out.push({
      ...this.base(pod.node),
      kind: 'pod',
      type: 'PodUpdated',
      podUid: pod.uid,
      patch: { deletionTimestamp: this.t },
    });
    for (const c of pod.containers) {
      out.push({
        ...this.base(pod.node),
        kind: 'cri',
        type: 'ContainerExited',
        source: 'relist',
        podUid: pod.uid,
        container: c,
        id: this.containerId(pod, c),
        detail: { state: 'CONTAINER_EXITED', exit_code: 0, reason: 'Completed' },
      });
      out.push({
        ...this.base(pod.node),
        kind: 'container',
        type: 'ContainerStateChanged',
        podUid: pod.uid,
        list: 'regular',
        name: c,
        status: this.status(pod, c, 'terminated', 'Completed'),
        from: 'running',
        to: 'terminated',
        why: why(
          'container.terminated',
          { exitCode: 0 },
          'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses',
        ),
      });
    }
    out.push({
      ...this.base(pod.node),
      kind: 'cri',
      type: 'SandboxNotReady',
      source: 'relist',
      podUid: pod.uid,
      id: this.containerId(pod, 'sandbox'),
    });
    if (pod.policy === 'Never') {
      out.push({
        ...this.base(pod.node),
        kind: 'pod',
        type: 'PodPhaseChanged',
        podUid: pod.uid,
        phase: 'Succeeded',
        from: 'Running',
        why: why(
          'phase.succeeded',
          { succeeded: pod.containers.length },
          'pkg/kubelet/kubelet_pods.go getPhase',
        ),
      });
    }
    pod.stage = 'terminating';
  }

  private removed(pod: SimPod, out: UnsequencedEvent[]): void {
    for (const c of pod.containers) {
      out.push({
        ...this.base(pod.node),
        kind: 'cri',
        type: 'ContainerRemoved',
        source: 'relist',
        podUid: pod.uid,
        container: c,
        id: this.containerId(pod, c),
      });
    }
    out.push({
      ...this.base(pod.node),
      kind: 'cri',
      type: 'SandboxRemoved',
      source: 'relist',
      podUid: pod.uid,
      id: this.containerId(pod, 'sandbox'),
    });
    out.push({ ...this.base(pod.node), kind: 'pod', type: 'PodRemoved', podUid: pod.uid });
    // A controller would replace it: a fresh pod takes the slot.
    const next = this.newPod(pod.node);
    next.generation = pod.generation + 1;
    Object.assign(pod, next);
  }
}

/** A synthetic timeline: the state before it (empty, at its start) and its events, numbered from 1. */
export interface SyntheticTimeline {
  initial: ClusterState;
  events: TimelineEvent[];
  /** Time of the last event. */
  end: number;
}

/**
 * A large cluster as a timeline (the console's `?source=scale`, the layout's scale tests): every
 * pod of `nodes × podsPerNode` up at `startT`, then at least `churn` events of the ordinary
 * stream (crashes into back-off, restarts, pods replaced, pressure flapping).
 */
export function syntheticCluster(
  options: WorkloadOptions & { churn?: number } = {},
): SyntheticTimeline {
  const { churn = 0, ...workload } = options;
  const w = new SyntheticWorkload({ batchMin: 20, batchMax: 60, ...workload });
  const initial: ClusterState = { ...emptyState(), t: w.now };
  const batches = [w.startAll(), ...w.batches(churn)];
  let seq = 0;
  const events: TimelineEvent[] = batches.flat().map((e) => ({ ...e, seq: ++seq }));
  return { initial, events, end: events[events.length - 1]?.t ?? initial.t };
}
