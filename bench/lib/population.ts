/**
 * The benchmark workload on a simulated node: N pods of C containers each, built exactly as
 * Podscope's driver builds them (kubelet labels and annotations, the pod-spec annotation), put
 * straight into the node's in-memory runtime. Going through the model instead of gRPC makes a
 * 300-node cluster ready in seconds; the requests still pass through the CRI codec, so the
 * runtime sees the same `__Output` shapes a gRPC call would give it.
 *
 * `Churner` then changes a given number of containers per step the way a crash-looping workload
 * does: a running container is killed (exits 137 Error); an exited one is replaced by the next
 * attempt (removed, created with restartCount + 1, started). The node keeps exactly
 * pods × containers records, so a churned relist lists as much as a quiet one.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { criDefinitions } from '@/server/cri/proto';
import { buildCreateContainerRequest, buildRunPodSandboxRequest } from '@/server/cri/requests';
import type { SandboxSpec } from '@/server/cri/types';
import { buildContainerSpec, buildSandboxSpec } from '@/server/driver/spec/labels';
import type { SimRuntime } from '@/server/sim';
import { createRandom } from '@/lib/random';
import type { CreateContainerRequest__Output } from '@/server/cri/generated/runtime/v1/CreateContainerRequest';
import type { RunPodSandboxRequest__Output } from '@/server/cri/generated/runtime/v1/RunPodSandboxRequest';

export const BENCH_IMAGE = 'podscope.local/busybox:1';

/** A deterministic stand-in for a uuid, from the node name and the pod's index. */
export function benchUid(node: string, index: number): string {
  let h = 0x811c9dc5;
  for (const ch of node) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const a = h.toString(16).padStart(8, '0');
  const b = index.toString(16).padStart(12, '0');
  return `${a}-0000-4000-8000-${b}`;
}

const APPS = ['web', 'api', 'worker', 'cache', 'queue', 'auth', 'search', 'billing'] as const;
const SIDECARS = ['proxy', 'log-shipper'] as const;

/** One benchmark pod: an app container plus sidecars, a memory limit, restartPolicy Always. */
export function benchPod(node: string, index: number, containers: number): V1Pod {
  const app = APPS[index % APPS.length] ?? 'web';
  const list: V1Container[] = [];
  for (let i = 0; i < containers; i++) {
    const name =
      i === 0 ? app : (SIDECARS[(i - 1) % SIDECARS.length] ?? 'side') + (i > 2 ? `-${i}` : '');
    list.push({
      name,
      image: BENCH_IMAGE,
      command: ['sleep', '2147483647'],
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {
        limits: { memory: '128Mi', cpu: '250m' },
        requests: { memory: '64Mi', cpu: '50m' },
      },
      ports: i === 0 ? [{ containerPort: 8080, protocol: 'TCP' }] : undefined,
    });
  }
  const suffix = index.toString(36).padStart(5, '0');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${suffix}`,
      namespace: ['default', 'shop', 'platform'][index % 3] ?? 'default',
      uid: benchUid(node, index),
      labels: { app, 'pod-template-hash': '7d4b9c8f6' },
    },
    spec: {
      nodeName: node,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      hostNetwork: false,
      containers: list,
    },
  };
}

/** Round-trips a request through the CRI codec: what the runtime would get from gRPC. */
function asReceived<T>(method: 'RunPodSandbox' | 'CreateContainer', request: unknown): T {
  const def = criDefinitions().runtime[method] as unknown as {
    requestSerialize: (v: unknown) => Buffer;
    requestDeserialize: (b: Buffer) => T;
  };
  return def.requestDeserialize(def.requestSerialize(request));
}

interface Slot {
  pod: V1Pod;
  sandbox: SandboxSpec;
  sandboxId: string;
  container: V1Container;
  /** The current container id of this slot. */
  id: string;
  restartCount: number;
}

/** One node's benchmark pods, with what is needed to restart their containers. */
export class NodePopulation {
  readonly slots: Slot[] = [];

  constructor(
    readonly runtime: SimRuntime,
    readonly node: string,
  ) {}

  /** Creates `pods` pods of `containers` running containers each. */
  populate(pods: number, containers: number): void {
    for (let i = 0; i < pods; i++) {
      const pod = benchPod(this.node, i, containers);
      const sandbox = buildSandboxSpec(pod, { attempt: 0 });
      const sandboxId = this.runtime.runPodSandbox(
        asReceived<RunPodSandboxRequest__Output>(
          'RunPodSandbox',
          buildRunPodSandboxRequest(sandbox),
        ),
      );
      for (const container of pod.spec?.containers ?? []) {
        const slot: Slot = { pod, sandbox, sandboxId, container, id: '', restartCount: 0 };
        slot.id = this.start(slot);
        this.slots.push(slot);
      }
    }
  }

  private start(slot: Slot): string {
    const spec = buildContainerSpec({
      container: slot.container,
      pod: slot.pod,
      restartCount: slot.restartCount,
      type: 'container',
      env: {},
    });
    const id = this.runtime.createContainer(
      asReceived<CreateContainerRequest__Output>(
        'CreateContainer',
        buildCreateContainerRequest(slot.sandboxId, spec, slot.sandbox),
      ),
    );
    this.runtime.startContainer(id);
    return id;
  }

  /** Changes slot `i`: kills a running container, or replaces an exited one by the next attempt. */
  churn(i: number): { id: string; to: 'exited' | 'running' } {
    const slot = this.slots[i];
    if (!slot) throw new RangeError(`no slot ${i} on ${this.node}`);
    const record = this.runtime.containers.get(slot.id);
    if (record?.state === 'CONTAINER_RUNNING') {
      // SIGKILL lands synchronously in the simulator: exits 137, reason Error.
      void this.runtime.stopContainer(slot.id, 0);
      return { id: slot.id, to: 'exited' };
    }
    this.runtime.removeContainer(slot.id);
    slot.restartCount++;
    slot.id = this.start(slot);
    return { id: slot.id, to: 'running' };
  }

  /** The slot index of a pod's container, for targeted changes. */
  slotOf(podIndex: number, containerIndex: number, containersPerPod: number): number {
    return podIndex * containersPerPod + containerIndex;
  }
}

/** Picks `count` distinct slots of a population and churns them. */
export class Churner {
  private readonly random: () => number;

  constructor(seed: number) {
    // Seeded (lib/random.ts), so runs churn the same containers.
    this.random = createRandom(seed).next;
  }

  step(population: NodePopulation, count: number): number {
    const n = population.slots.length;
    const picked = new Set<number>();
    const want = Math.min(count, n);
    while (picked.size < want) picked.add(Math.floor(this.random() * n));
    for (const i of picked) population.churn(i);
    return picked.size;
  }
}
