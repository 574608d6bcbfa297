/**
 * The soak's load: N simulated CRI nodes (real gRPC on unix sockets), each with Podscope's driver
 * as its kubelet, churning pods for as long as the soak runs — a crash loop and a service on every
 * node, short-lived Job pods coming and going, the crash loop replaced now and then. Runs in its
 * own process so the server under test shares nothing with it but the machine.
 *
 *   node --import tsx test/soak/load.ts NODES SOCKET_DIR SEED
 *
 * Prints one JSON line {"ready":true,"nodes":[{name,endpoint}…]} once every node listens, then
 * {"stats":{…}} every 10 s; logs driver trouble on stderr; stops cleanly on SIGTERM.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { CriClient } from '@/server/cri/client';
import { fromSimClock } from '@/server/driver/clock';
import { seededRandom } from '@/server/demo/workload';
import { Driver } from '@/server/driver/driver';
import { startSimCluster } from '@/server/sim';

const [nodesArg, socketDir, seedArg] = process.argv.slice(2);
const count = Number(nodesArg ?? 100);
if (!Number.isInteger(count) || count < 1 || !socketDir) {
  throw new Error('usage: load.ts NODES SOCKET_DIR [SEED]');
}
const seed = seedArg ?? 'soak';
const BUSYBOX = 'podscope.local/busybox:1';

const pod = (name: string, command: string[], restartPolicy: 'Always' | 'Never'): V1Pod => ({
  metadata: { name, namespace: 'soak' },
  spec: {
    restartPolicy,
    terminationGracePeriodSeconds: 1,
    containers: [{ name: 'app', image: BUSYBOX, command }],
  },
});

const stats = { applied: 0, deleted: 0, errors: 0 };
const fail = (what: string, err: unknown) => {
  stats.errors++;
  process.stderr.write(`[load] ${what}: ${err instanceof Error ? err.message : String(err)}\n`);
};

const cluster = await startSimCluster({
  nodes: count,
  socketDir,
  namePrefix: 'soak-',
  clock: { mode: 'real', speed: 1 },
  seed,
  eventsMode: 'stream',
});
const clock = fromSimClock(cluster.clock);
const clients: CriClient[] = [];
const drivers: Driver[] = [];
const timers: ReturnType<typeof setTimeout>[] = [];
let stopping = false;

for (const node of cluster.nodes) {
  const client = new CriClient(node.endpoint);
  clients.push(client);
  const driver = new Driver({
    client,
    node: node.name,
    clock,
    backoffScale: 0.1,
    uidSeed: `${seed}/${node.name}`,
    log: (line) => process.stderr.write(`[load] ${line}\n`),
  });
  drivers.push(driver);
  const random = seededRandom(`${seed}/${node.name}`);
  const later = (ms: number, fn: () => Promise<void>) => {
    const t = setTimeout(() => {
      if (!stopping) fn().catch((err: unknown) => fail(`${node.name}`, err));
    }, ms);
    timers.push(t);
    if (timers.length > 10_000) timers.splice(0, timers.length - 1_000);
  };
  const apply = async (p: V1Pod) => {
    const applied = await driver.apply(p);
    stats.applied++;
    return applied.metadata?.uid ?? '';
  };
  const remove = async (uid: string) => {
    await driver.delete(uid, { gracePeriodSeconds: 1 });
    stats.deleted++;
  };

  // Steady: a service and a crash loop (exits 1 after 3 s, back-off 1 s doubling to 30 s).
  await apply(pod('web', ['sleep', 'infinity'], 'Always'));
  let crash = await apply(pod('crashy-0', ['sh', '-c', 'sleep 3; exit 1'], 'Always'));
  let generation = 0;
  // Churn: a short-lived Job pod every 20–60 s, deleted 15 s after it was applied; the crash
  // loop replaced by a fresh pod every 4–6 min.
  let job = 0;
  const nextJob = () =>
    later(20_000 + random() * 40_000, async () => {
      const uid = await apply(
        pod(`job-${job++}`, ['sh', '-c', `sleep ${2 + Math.floor(random() * 6)}; exit 0`], 'Never'),
      );
      later(15_000, () => remove(uid));
      nextJob();
    });
  const nextRollout = () =>
    later(240_000 + random() * 120_000, async () => {
      await remove(crash);
      crash = await apply(pod(`crashy-${++generation}`, ['sh', '-c', 'sleep 3; exit 1'], 'Always'));
      nextRollout();
    });
  nextJob();
  nextRollout();
}

process.stdout.write(
  `${JSON.stringify({ ready: true, nodes: cluster.nodes.map((n) => ({ name: n.name, endpoint: n.endpoint })) })}\n`,
);
const report = setInterval(() => {
  const m = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ stats: { ...stats, pods: drivers.reduce((n, d) => n + d.pods().length, 0), rssBytes: m.rss, heapBytes: m.heapUsed } })}\n`,
  );
}, 10_000);

const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(report);
  for (const t of timers) clearTimeout(t);
  await Promise.all(drivers.map((d) => d.stop()));
  for (const c of clients) c.close();
  await cluster.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
