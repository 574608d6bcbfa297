/** The central view fed by real agents over a real nats-server (simulated runtimes). */
import { describe, expect, it } from 'vitest';
import { startAgent, type AgentConfig } from '@/server/agent/agent';
import { agentFixture, quiet } from '@/server/agent/testing/fixture';
import { connectBus } from './bus/connection';
import { ReplicaReader } from './bus/reader';
import { ClusterView, followBus } from './view';
import { podSpec, runPodRequest } from '@/server/sim/testing';

const fx = agentFixture();
const GRACE_MS = 1_500;

/** A simulated node with one long-running pod. */
async function sim(name: string) {
  const { node } = await fx.simNode(name);
  const { uid } = fx.addPod(node, `${name}-web`, ['sh', '-c', 'sleep 3600']);
  return { node, uid };
}

const agentConfig = (node: string, endpoint: string, cluster: string): AgentConfig =>
  fx.config(node, endpoint, cluster, { outboxBytes: 1 << 20 });

async function view(cluster: string) {
  const bus = await connectBus({ servers: fx.nats.url, cluster, log: quiet });
  const ac = new AbortController();
  const v = new ClusterView({ graceMs: GRACE_MS, startedAt: Date.now() });
  await followBus(new ReplicaReader(bus), v, { signal: ac.signal });
  fx.onCleanup(async () => {
    ac.abort();
    await bus.close();
  });
  return v;
}

const until = async (what: string, cond: () => boolean, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const ready = (v: ClusterView, node: string) =>
  v.snapshot(Date.now()).nodes[node]?.conditions.find((c) => c.type === 'Ready');

describe('cluster view from real agents', () => {
  it('a node whose agent stops heartbeating turns Ready=Unknown after the grace period and recovers when an agent returns', async () => {
    const { node, uid } = await sim('contact-a');
    const gone = await startAgent(agentConfig('worker-1.example', node.endpoint, 'contact'), {
      log: quiet,
    });
    fx.onCleanup(() => gone.stop(0));
    const v = await view('contact');
    await until(
      'the pod and Ready=True',
      () =>
        !!v.snapshot(Date.now()).nodes['worker-1.example']?.pods[uid] &&
        ready(v, 'worker-1.example')?.status === 'True',
    );
    const first = v.track('worker-1.example')?.epoch;
    // the agent goes away (stop, no drain): heartbeats stop
    const stopped = Date.now();
    await gone.stop(0);
    await until('Ready=Unknown', () => ready(v, 'worker-1.example')?.status === 'Unknown', 10_000);
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(GRACE_MS - 300);
    expect(ready(v, 'worker-1.example')?.reason).toBe('NodeStatusUnknown');
    // a new agent run: contact back, the node and its pod reported afresh
    const again = await startAgent(agentConfig('worker-1.example', node.endpoint, 'contact'), {
      log: quiet,
    });
    fx.onCleanup(() => again.stop(0));
    await until('Ready=True again', () => ready(v, 'worker-1.example')?.status === 'True');
    expect(v.track('worker-1.example')?.epoch).toBe(again.epoch);
    expect(again.epoch).not.toBe(first);
    expect(v.snapshot(Date.now()).nodes['worker-1.example']?.pods[uid]).toBeDefined();
  });

  it('two agents claiming one node name are detected and shown', async () => {
    const a = await sim('claim-a');
    const b = await sim('claim-b');
    const one = await startAgent(agentConfig('same-name', a.node.endpoint, 'claims'), {
      log: quiet,
    });
    fx.onCleanup(() => one.stop(0));
    const v = await view('claims');
    await until('the first agent seen', () => !!v.track('same-name')?.heartbeat);
    expect(v.conflicts(Date.now())).toEqual([]);
    const two = await startAgent(agentConfig('same-name', b.node.endpoint, 'claims'), {
      log: quiet,
    });
    fx.onCleanup(() => two.stop(0));
    await until('a conflict', () => v.conflicts(Date.now()).length === 1);
    const [c] = v.conflicts(Date.now());
    expect(c?.node).toBe('same-name');
    expect(new Set(c?.instances.map((i) => i.endpoint))).toEqual(
      new Set([a.node.endpoint, b.node.endpoint]),
    );
    expect(new Set(c?.instances.map((i) => i.epoch))).toEqual(new Set([one.epoch, two.epoch]));
    // the newer run wins the node's events; the older run's are counted, not applied
    const pod = podSpec('claim-a-late');
    a.node.runtime.runPodSandbox(runPodRequest(pod));
    await until('the older run ignored', () => v.stats.staleEpoch > 0);
    expect(v.track('same-name')?.epoch).toBe(two.epoch);
  });
});
