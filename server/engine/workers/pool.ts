/**
 * The relist worker pool: node engines in worker threads (relist-worker.ts), each worker with
 * its own heap and garbage collector, so the relists of many nodes use every core and their
 * gRPC buffers never reach the main thread's heap, where the recorder, the store and the
 * streams live.
 *
 * A node goes to the worker with the fewest nodes. Its events come back in reports, are
 * renumbered with the recorder's seqs (renumber.ts) and committed as one batch per report; its
 * status (what nodes() and health() show) is the one last reported. A worker that dies is started
 * again with its nodes, each continuing from the view the recorder holds, and the death is logged.
 *
 * What a worker cannot run: hint providers (the driver, the API server) are objects of the main
 * thread, and so are a test's clock or back-off; the façade keeps such nodes in-thread
 * (engine.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FeatureGates } from '@/lib/kubelet';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { NodeView } from '@/lib/timeline/state';
import { findProjectRoot } from '@/server/cri/proto';
import type { LogFn, LogLevel } from '@/server/log';
import type { EngineMetrics } from '../metrics';
import type { EngineTimings } from '../timings';
import type { FromWorker, NodeStatus, ToWorker, WorkerConfig, WorkerNodeSpec } from './protocol';
import { renumber } from './renumber';

/** Batches a worker gathers before handing them over (ms). */
export const WORKER_FLUSH_MS = 25;
/** Status reports and engine ticks in a worker (ms): the façade's housekeeping period. */
export const WORKER_REPORT_MS = 1_000;
/** A worker that died is started again after this long (ms). */
const RESTART_MS = 1_000;

export interface RelistPoolOptions {
  size: number;
  timings: EngineTimings;
  gates?: FeatureGates;
  criTimeoutMs?: number;
  nextSeq: () => number;
  commit: (events: TimelineEvent[]) => void;
  /** The node as the recorder holds it (a restarted worker continues from it). */
  viewOf: (name: string) => NodeView | undefined;
  metrics: EngineMetrics;
  log: LogFn;
}

/** A node watched in a worker, as the façade sees it (the watcher fields nodes() reads). */
export class RemoteNode {
  connected = false;
  mode: 'events' | 'polling' = 'polling';
  lastRelistAt: number | undefined;
  lastError: string | undefined;
  skipped = 0;
  relists = 0;

  constructor(
    readonly spec: WorkerNodeSpec,
    private readonly pool: RelistPool,
    public worker: PoolWorker,
  ) {}

  /** The watcher-shaped view engine.ts reads. */
  get watcher(): RemoteNode {
    return this;
  }

  absorb(s: NodeStatus): void {
    this.connected = s.connected;
    this.mode = s.mode;
    this.lastRelistAt = s.lastRelistAt;
    this.lastError = s.lastError;
    this.skipped = s.skipped;
    this.relists = s.relists;
  }

  /** Its worker died: not connected until the restarted worker reports it. */
  lost(reason: string): void {
    this.connected = false;
    this.lastError = reason;
  }

  stop(): void {
    this.pool.remove(this);
  }
}

class PoolWorker {
  readonly nodes = new Map<string, RemoteNode>();
  thread: Worker;
  private stopping = false;

  constructor(
    private readonly pool: RelistPool,
    readonly index: number,
  ) {
    this.thread = this.spawn();
  }

  private spawn(): Worker {
    const w = new Worker(this.pool.paths.boot, {
      workerData: {
        entry: this.pool.paths.entry,
        tsconfig: this.pool.paths.tsconfig,
        config: this.pool.config,
        index: this.index,
      },
      name: `podscope-relist-${this.index}`,
    });
    w.on('message', (m: FromWorker) => this.pool.received(this, m));
    w.on('error', (err) => this.pool.log(`relist worker ${this.index}: ${err.message}`, 'error'));
    w.on('exit', (code) => {
      if (this.stopping) return;
      this.pool.log(
        `relist worker ${this.index} exited (${code}); restarting it with its ${this.nodes.size} node(s)`,
        'error',
      );
      for (const n of this.nodes.values()) n.lost('relist worker restarting');
      const timer = setTimeout(() => {
        if (this.stopping) return;
        this.thread = this.spawn();
        for (const n of this.nodes.values()) this.send({ op: 'add', node: this.pool.respec(n) });
      }, RESTART_MS);
      timer.unref();
    });
    return w;
  }

  send(m: ToWorker): void {
    this.thread.postMessage(m);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.thread.once('exit', () => resolve()));
    this.send({ op: 'stop' });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
    await Promise.race([exited, timeout]);
    await this.thread.terminate();
  }
}

export class RelistPool {
  readonly config: WorkerConfig;
  readonly paths: { boot: string; entry: string; tsconfig: string };
  private readonly workers: PoolWorker[] = [];

  constructor(private readonly options: RelistPoolOptions) {
    this.config = {
      timings: options.timings,
      ...(options.gates ? { gates: options.gates } : {}),
      ...(options.criTimeoutMs !== undefined ? { criTimeoutMs: options.criTimeoutMs } : {}),
      flushMs: WORKER_FLUSH_MS,
      reportMs: WORKER_REPORT_MS,
    };
    this.paths = workerPaths();
    for (let i = 0; i < Math.max(1, options.size); i++) this.workers.push(new PoolWorker(this, i));
  }

  get size(): number {
    return this.workers.length;
  }

  /** Starts workers until there are `size` (never stops any: their nodes stay where they are). */
  grow(size: number): void {
    while (this.workers.length < size) this.workers.push(new PoolWorker(this, this.workers.length));
  }

  log(line: string, level?: LogLevel): void {
    this.options.log(line, level);
  }

  add(spec: WorkerNodeSpec): RemoteNode {
    const worker = this.workers.reduce((a, b) => (b.nodes.size < a.nodes.size ? b : a));
    const node = new RemoteNode(spec, this, worker);
    worker.nodes.set(spec.name, node);
    worker.send({ op: 'add', node: spec });
    return node;
  }

  remove(node: RemoteNode): void {
    const w = node.worker;
    if (w.nodes.get(node.spec.name) !== node) return;
    w.nodes.delete(node.spec.name);
    w.send({ op: 'remove', name: node.spec.name });
  }

  /** Events recorded outside the engines (drift): each worker gets those about its nodes. */
  observe(events: readonly TimelineEvent[]): void {
    for (const w of this.workers) {
      const mine = events.filter((e) => w.nodes.has(e.node));
      if (mine.length > 0) w.send({ op: 'observe', events: mine });
    }
  }

  adopt(name: string, view: NodeView | undefined): void {
    for (const w of this.workers) if (w.nodes.has(name)) w.send({ op: 'adopt', name, view });
  }

  /** The spec to start a node again from (after its worker died): the view as recorded. */
  respec(node: RemoteNode): WorkerNodeSpec {
    const view = this.options.viewOf(node.spec.name);
    const { initial: _old, ...rest } = node.spec;
    return { ...rest, ...(view ? { initial: view } : {}) };
  }

  received(w: PoolWorker, m: FromWorker): void {
    if (m.type !== 'report') return;
    for (const s of m.statuses) w.nodes.get(s.name)?.absorb(s);
    for (const [line, level] of m.logs) this.options.log(line, level);
    const instruments = this.options.metrics as unknown as Record<
      string,
      Record<string, (labels: Record<string, string>, value?: number) => void>
    >;
    for (const [metric, op, labels, value] of m.metrics) {
      const fn = instruments[metric]?.[op];
      if (value === undefined) fn?.call(instruments[metric], labels);
      else fn?.call(instruments[metric], labels, value);
    }
    // Events of a node removed meanwhile are dropped (its NodeRemoved is already recorded).
    const events = renumber(m.events, this.options.nextSeq, (e) => w.nodes.has(e.node));
    if (events.length > 0) this.options.commit(events);
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}

/**
 * Bundled workers live here when the server was shipped without server/ and tsx: the image's
 * entry (deploy/image/entry.mjs) sets it to its own workers/ folder, where the image build put
 * one self-contained esbuild bundle per worker entry (deploy/image/build.ts bundleWorkers).
 */
export const WORKERS_DIR_ENV = 'PODSCOPE_WORKERS_DIR';

/** The relist worker's entry, from the project root. */
export const RELIST_WORKER_ENTRY = ['server', 'engine', 'workers', 'relist-worker.ts'] as const;

/** The bundle of a worker entry: its file name with .mjs for .ts (relist-worker.mjs). */
export function workerBundleName(entry: readonly string[]): string {
  return (entry[entry.length - 1] ?? '').replace(/\.ts$/, '.mjs');
}

/**
 * Where a worker's files are. First the bundled worker in $PODSCOPE_WORKERS_DIR (the image):
 * `boot` is then the bundle itself and needs no loader. Else the checkout's: beside this module,
 * or under the project root (next start). The boot file is generic (tsx, then `entry`, a path
 * from the project root), so other workers start through it too
 * (server/cluster/timeline/keeper-thread.ts).
 */
export function workerPaths(entry: readonly string[] = RELIST_WORKER_ENTRY): {
  boot: string;
  entry: string;
  tsconfig: string;
} {
  const bundles = process.env[WORKERS_DIR_ENV];
  if (bundles) {
    const bundle = join(bundles, workerBundleName(entry));
    if (existsSync(bundle))
      return { boot: bundle, entry: pathToFileURL(bundle).href, tsconfig: '' };
  }
  const starts: string[] = [];
  try {
    starts.push(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // Bundled: import.meta.url is not a file URL.
  }
  starts.push(process.cwd());
  for (const start of starts) {
    const root = findProjectRoot(start);
    if (!root) continue;
    const dir = join(root, 'server', 'engine', 'workers');
    const boot = join(dir, 'boot.mjs');
    if (existsSync(boot))
      return {
        boot,
        entry: pathToFileURL(join(root, ...entry)).href,
        tsconfig: join(root, 'tsconfig.json'),
      };
  }
  throw new Error(
    `cannot find server/engine/workers/boot.mjs above ${starts.join(' or ')}${bundles ? ` nor ${workerBundleName(entry)} in ${WORKERS_DIR_ENV}=${bundles}` : ''}; the server folder must ship with the server`,
  );
}
