/**
 * The built-in demo workload for `npm start`: a small shop running on the simulated nodes through
 * the driver, with something always happening.
 *
 *   shop/web-…            Deployment, 3 replicas of a service, spread over the nodes
 *   shop/orders-…         two init containers (wait-for-db, migrate), then the app; rolled every 5 min
 *   shop/checkout-…       a sidecar (envoy, an init container with restartPolicy Always) + the app
 *   shop/payments-worker-… exits 1 after 4 s, restartPolicy Always → CrashLoopBackOff, rising restarts
 *   shop/recommendations-… an image whose pull fails → ErrImagePull / ImagePullBackOff
 *   media/thumbnailer-…   OOMKilled (256 MiB under a 128 MiB limit) and restarted
 *   batch/report-N-…      a Job pod that succeeds after ~20 s; a new run every 2 min (last 3 kept)
 *   batch/import-customers-N-… a Job pod that fails (exit 2); a new run every 6 min (last 2 kept)
 *   kube-system/kube-proxy-… one per node; kube-system/coredns-… one replica
 *   shop/cart-…           readiness flaps: its httpGet /healthz answers 404 for 12 s of every 32 s
 *                         → Running but not Ready, out of the Service, never restarted
 *   shop/inventory-…      its liveness probe fails 30 s after each start (a stuck worker pool)
 *                         → the kubelet kills and restarts it, into CrashLoopBackOff
 *
 * Probes are run by the drivers' prober (server/driver/probes) against the simulator's network
 * model (server/sim/runtime/network.ts), as they would be on a real node.
 * Images come from the simulator's catalogue (server/sim/CATALOGUE.md). Names use the API's
 * random-suffix alphabet drawn from a seeded generator, so a given seed gives the same names
 * (and, through the drivers' uid seeds, the same uids) on every run. All scheduling goes through
 * the injected clock. The back-off scale is the drivers' (see server/runtime).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { createRandom } from '@/lib/random';
import { logFn, rootLogger } from '@/server/log';
import type { DriverClock, DriverTimer } from '../driver/clock';
import type { Driver } from '../driver/driver';

/** Back-off periods of the demo, scaled so a crash loop is visible within seconds. */
export const DEMO_BACKOFF_SCALE = 0.2;

export const BUSYBOX = 'podscope.local/busybox:1';
export const SERVICE_IMAGE = 'podscope.local/app:1.4.2';

/** k8s.io/apimachinery/pkg/util/rand's alphabet (no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export interface DemoOptions {
  drivers: readonly Driver[];
  clock: DriverClock;
  seed: number | string;
  /** Period of the succeeding Job (default 2 min), the failing Job (6 min), the orders rollout (5 min). */
  reportEveryMs?: number;
  importEveryMs?: number;
  rolloutEveryMs?: number;
  log?: (line: string) => void;
}

export interface DemoWorkload {
  stop(): Promise<void>;
}

/** Uniform draws in [0, 1) from the project's seeded generator (lib/random.ts). */
export function seededRandom(seed: number | string): () => number {
  return createRandom(seed).next;
}

function suffix(random: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET.charAt(Math.floor(random() * ALPHABET.length));
  return s;
}

function pod(
  namespace: string,
  name: string,
  labels: Record<string, string>,
  spec: Omit<NonNullable<V1Pod['spec']>, 'containers'> & { containers: V1Container[] },
): V1Pod {
  return {
    metadata: { name, namespace, labels },
    spec: { terminationGracePeriodSeconds: 10, ...spec },
  };
}

const service = (name: string, extra: Partial<V1Container> = {}): V1Container => ({
  name,
  image: SERVICE_IMAGE,
  resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } },
  ...extra,
});

const shell = (name: string, script: string, extra: Partial<V1Container> = {}): V1Container => ({
  name,
  image: BUSYBOX,
  command: ['sh', '-c', script],
  ...extra,
});

/** The pods of the steady workload, with the node index each goes to (mod the node count). */
export function steadyPods(random: () => number, nodes: number): { node: number; pod: V1Pod }[] {
  const deployment = (name: string) => `${name}-${suffix(random, 9)}`;
  const webRs = deployment('web');
  const out: { node: number; pod: V1Pod }[] = [];
  for (let i = 0; i < 3; i++) {
    out.push({
      node: i,
      pod: pod(
        'shop',
        `${webRs}-${suffix(random, 5)}`,
        { app: 'web' },
        { containers: [service('web')] },
      ),
    });
  }
  for (let i = 0; i < nodes; i++) {
    out.push({
      node: i,
      pod: pod(
        'kube-system',
        `kube-proxy-${suffix(random, 5)}`,
        { 'k8s-app': 'kube-proxy' },
        { priorityClassName: 'system-node-critical', containers: [service('kube-proxy')] },
      ),
    });
  }
  out.push({
    node: 0,
    pod: pod(
      'kube-system',
      `${deployment('coredns')}-${suffix(random, 5)}`,
      { 'k8s-app': 'kube-dns' },
      {
        priorityClassName: 'system-cluster-critical',
        containers: [service('coredns')],
      },
    ),
  });
  out.push({
    node: 0,
    pod: pod(
      'shop',
      `${deployment('payments-worker')}-${suffix(random, 5)}`,
      { app: 'payments-worker' },
      {
        restartPolicy: 'Always',
        containers: [
          shell(
            'worker',
            "echo connecting to queue; sleep 4; echo 'fatal: queue.shop.svc:5672 unreachable' >&2; exit 1",
          ),
        ],
      },
    ),
  });
  out.push({
    node: 1,
    pod: pod(
      'shop',
      `${deployment('recommendations')}-${suffix(random, 5)}`,
      { app: 'recommendations' },
      {
        containers: [service('recommendations', { image: 'podscope.local/failing-pull:2.0.0' })],
      },
    ),
  });
  out.push({
    node: 1,
    pod: pod(
      'shop',
      `${deployment('checkout')}-${suffix(random, 5)}`,
      { app: 'checkout' },
      {
        initContainers: [service('envoy', { restartPolicy: 'Always' })],
        containers: [service('checkout')],
      },
    ),
  });
  out.push({
    node: 2,
    pod: pod(
      'media',
      `${deployment('thumbnailer')}-${suffix(random, 5)}`,
      { app: 'thumbnailer' },
      {
        restartPolicy: 'Always',
        containers: [
          {
            name: 'thumbnailer',
            image: 'podscope.local/oom-after:1',
            env: [
              { name: 'OOM_AFTER', value: '8' },
              { name: 'ALLOC', value: '256M' },
            ],
            resources: { requests: { memory: '128Mi' }, limits: { memory: '128Mi' } },
          },
        ],
      },
    ),
  });
  out.push({ node: 2, pod: cartPod(random) }, { node: 2, pod: inventoryPod(random) });
  return out.map((p) => ({ node: p.node % Math.max(1, nodes), pod: p.pod }));
}

export function cartPod(random: () => number): V1Pod {
  // httpd serves /www; /www/healthz is there for 20 s, gone for 12 s, and so on.
  return pod(
    'shop',
    `cart-${suffix(random, 9)}-${suffix(random, 5)}`,
    { app: 'cart' },
    {
      containers: [
        shell(
          'cart',
          "trap 'exit 0' TERM; touch /www/healthz; httpd -f -p 8080 -h /www & while true; do sleep 20; rm /www/healthz; echo 'redis.shop.svc:6379 timed out, /healthz failing' >&2; sleep 12; touch /www/healthz; echo 'redis reconnected'; done",
          {
            ports: [{ name: 'http', containerPort: 8080 }],
            readinessProbe: {
              httpGet: { path: '/healthz', port: 8080 },
              periodSeconds: 2,
              failureThreshold: 2,
            },
          },
        ),
      ],
    },
  );
}

export function inventoryPod(random: () => number): V1Pod {
  // Healthy for 30 s after each start, then its worker pool hangs and /tmp/healthy is gone.
  return pod(
    'shop',
    `inventory-${suffix(random, 9)}-${suffix(random, 5)}`,
    { app: 'inventory' },
    {
      restartPolicy: 'Always',
      containers: [
        shell(
          'inventory',
          "trap 'exit 143' TERM; touch /tmp/healthy; echo 'syncing stock levels'; sleep 30; rm /tmp/healthy; echo 'worker pool stuck: 0 of 8 workers responding' >&2; while true; do sleep 1; done",
          {
            livenessProbe: {
              exec: { command: ['cat', '/tmp/healthy'] },
              initialDelaySeconds: 5,
              periodSeconds: 3,
              failureThreshold: 3,
            },
          },
        ),
      ],
    },
  );
}

export function ordersPod(random: () => number): V1Pod {
  return pod(
    'shop',
    `orders-${suffix(random, 9)}-${suffix(random, 5)}`,
    { app: 'orders' },
    {
      initContainers: [
        shell('wait-for-db', 'echo waiting for postgres.shop.svc:5432; sleep 3; echo ready'),
        shell('migrate', 'echo applying migrations; sleep 4; echo 12 migrations applied'),
      ],
      containers: [service('orders')],
    },
  );
}

/** CronJob-style run numbers: minutes since the epoch at scheduling time. */
const runNumber = (now: number) => Math.floor(now / 60_000);

export function reportJobPod(random: () => number, now: number): V1Pod {
  const job = `report-${runNumber(now)}`;
  return pod(
    'batch',
    `${job}-${suffix(random, 5)}`,
    { 'job-name': job, 'batch.kubernetes.io/job-name': job },
    {
      restartPolicy: 'Never',
      containers: [
        shell('report', 'echo generating daily sales report; sleep 20; echo report written'),
      ],
    },
  );
}

export function importJobPod(random: () => number, now: number): V1Pod {
  const job = `import-customers-${runNumber(now)}`;
  return pod(
    'batch',
    `${job}-${suffix(random, 5)}`,
    { 'job-name': job, 'batch.kubernetes.io/job-name': job },
    {
      restartPolicy: 'Never',
      containers: [
        shell(
          'import',
          "echo importing customers; sleep 6; echo 'error: /data/customers.csv: no such file or directory' >&2; exit 2",
        ),
      ],
    },
  );
}

export async function startDemoWorkload(options: DemoOptions): Promise<DemoWorkload> {
  const { drivers, clock } = options;
  if (drivers.length === 0) throw new Error('demo workload: no drivers (nodes) to run on');
  const log = options.log ?? logFn(rootLogger());
  const random = seededRandom(options.seed);
  const timers = new Set<DriverTimer>();
  /** Applies in flight (stop() waits for them); deletions run on and are not waited for. */
  const pending = new Set<Promise<unknown>>();
  let stopped = false;

  const on = (index: number): Driver => drivers[index % drivers.length] as Driver;
  const report = (err: unknown) => {
    if (!stopped) log(`demo workload: ${err instanceof Error ? err.message : String(err)}`);
  };
  const track = <T>(p: Promise<T>): void => {
    const q = p.catch(report);
    pending.add(q);
    void q.finally(() => pending.delete(q));
  };
  const remove = (run: { driver: Driver; uid: string }, gracePeriodSeconds?: number): void => {
    run.driver
      .delete(run.uid, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds })
      .catch(report);
  };
  const apply = async (index: number, p: V1Pod): Promise<{ driver: Driver; uid: string }> => {
    const driver = on(index);
    const applied = await driver.apply(p);
    return { driver, uid: applied.metadata?.uid ?? '' };
  };
  const every = (ms: number, fn: () => void): void => {
    const arm = () => {
      if (stopped) return;
      const t = clock.setTimer(ms, () => {
        timers.delete(t);
        fn();
        arm();
      });
      timers.add(t);
    };
    arm();
  };
  /** Keeps the last `keep` runs of a recurring pod, deleting older ones (a Job history limit). */
  const recurring = (index: number, make: () => V1Pod, keep: number) => {
    const runs: { driver: Driver; uid: string }[] = [];
    return () =>
      track(
        apply(index, make()).then((run) => {
          runs.push(run);
          for (const old of runs.splice(0, Math.max(0, runs.length - keep))) {
            remove(old, 0);
          }
        }),
      );
  };

  for (const { node, pod: p } of steadyPods(random, drivers.length)) track(apply(node, p));

  let orders: { driver: Driver; uid: string } | undefined;
  const rollOrders = () =>
    track(
      apply(0, ordersPod(random)).then((next) => {
        const previous = orders;
        orders = next;
        if (previous) remove(previous);
      }),
    );
  const reportJob = recurring(1, () => reportJobPod(random, clock.now()), 3);
  const importJob = recurring(2, () => importJobPod(random, clock.now()), 2);
  rollOrders();
  reportJob();
  importJob();
  every(options.rolloutEveryMs ?? 5 * 60_000, rollOrders);
  every(options.reportEveryMs ?? 2 * 60_000, reportJob);
  every(options.importEveryMs ?? 6 * 60_000, importJob);

  await Promise.all([...pending]);
  return {
    async stop() {
      stopped = true;
      for (const t of timers) t.cancel();
      timers.clear();
      await Promise.all([...pending]);
    },
  };
}
