/**
 * The cluster-mode integration tests' set-up: a real nats-server for the file (started before its
 * tests, destroyed after them), simulated runtimes that record every RPC they receive, pods made
 * in a runtime's model directly (so every call the runtime receives is an agent's), agents with
 * short periods, and one list of things to close when the file is done.
 *
 *   const fx = agentFixture();
 *   const { node } = await fx.simNode('a');
 *   const a = await fx.agent(fx.config('a', node.endpoint, 'cluster'));
 */
import { afterAll, beforeAll } from 'vitest';
import { startNats, type NatsInstance } from '@/test/cluster/harness';
import { startAgent, type Agent, type AgentConfig } from '@/server/agent/agent';
import { connectBus } from '@/server/cluster/bus/connection';
import { ReplicaReader } from '@/server/cluster/bus/reader';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { startSimNode, type RpcName, type SimNode } from '@/server/sim';
import { createRequest, podSpec, runPodRequest } from '@/server/sim/testing';

export const IMAGE = 'podscope.local/busybox:1';
export const quiet = (): void => {};

export interface AgentFixture {
  readonly nats: NatsInstance;
  /** Closed (in reverse order) when the file's tests are done. */
  onCleanup: (fn: () => Promise<unknown>) => void;
  /** A simulated node whose every received RPC is recorded (server side). */
  simNode: (name: string) => Promise<{ node: SimNode; calls: Set<RpcName> }>;
  /** A pod with one container running `command`, made in the runtime's model directly. */
  addPod: (node: SimNode, name: string, command: string[]) => { uid: string; id: string };
  /** An agent's configuration: loopback, 200 ms relists, heartbeats and node state. */
  config: (
    node: string,
    endpoint: string,
    cluster: string,
    extra?: Partial<AgentConfig>,
  ) => AgentConfig;
  agent: (c: AgentConfig) => Promise<Agent>;
  /** A console replica's reader of the cluster's bus (its connection: `.bus`). */
  reader: (cluster: string) => Promise<ReplicaReader>;
}

export function agentFixture(): AgentFixture {
  let nats: NatsInstance | undefined;
  const cleanup: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    nats = await startNats();
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await nats?.destroy();
  });
  const fx: AgentFixture = {
    get nats() {
      if (!nats) throw new Error('agentFixture: nats-server is not started yet (use it in a test)');
      return nats;
    },
    onCleanup: (fn) => cleanup.push(fn),
    async simNode(name) {
      const node = await startSimNode({ name });
      cleanup.push(() => node.stop());
      const calls = new Set<RpcName>();
      const faults = node.faults as unknown as {
        latency(rpc: RpcName): number;
        error(rpc: RpcName): unknown;
      };
      const latency = faults.latency.bind(faults);
      const error = faults.error.bind(faults);
      faults.latency = (rpc) => (calls.add(rpc), latency(rpc));
      faults.error = (rpc) => (calls.add(rpc), error(rpc));
      return { node, calls };
    },
    addPod(node, name, command) {
      const pod = podSpec(name);
      const sandboxId = node.runtime.runPodSandbox(runPodRequest(pod));
      const id = node.runtime.createContainer(
        createRequest(sandboxId, { name: 'main', image: IMAGE, command }, pod),
      );
      node.runtime.startContainer(id);
      return { uid: pod.uid, id };
    },
    config: (node, endpoint, cluster, extra = {}) => ({
      node,
      endpoint,
      nats: fx.nats.url,
      cluster,
      listen: { host: '127.0.0.1', port: 0 },
      outboxBytes: 16 * 1024 * 1024,
      heartbeatMs: 200,
      stateMs: 200,
      timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs: 200 },
      criTimeoutMs: 2_000,
      ...extra,
    }),
    async agent(c) {
      const a = await startAgent(c, { log: quiet });
      cleanup.push(() => a.stop(0));
      return a;
    },
    async reader(cluster) {
      const bus = await connectBus({ servers: fx.nats.url, cluster, log: quiet });
      cleanup.push(() => bus.close());
      return new ReplicaReader(bus);
    },
  };
  return fx;
}
