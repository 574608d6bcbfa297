/**
 * The checkpoint keeper (checkpoints.ts) in a worker thread of its own, with its own connection
 * to the timeline, behind one advisory lock among the replicas (keeper-lock.ts).
 *
 *   const keeper = startKeeper({ open, timeline, floor: () => ackFloor(), log });
 *   await keeper.tick();                 // { gid, tMax } of a new checkpoint, or undefined
 *   await keeper.retain({ maxAgeMs });
 *   await keeper.stop();
 *
 * Why a thread. The keeper folds every committed event a second time (the view has folded it
 * once, live) and encodes the whole cluster state every 50,000 events — ~35 µs of CPU per event
 * and ~110 MB of JSON at 5,000 nodes. On the console's event loop that was what the bench's
 * 5,000-node level lacked (arrival lag p99 4.0 s with it, 1.8 s before checkpoints existed).
 * Building checkpoints from the view's own per-node states instead was weighed and left: the view
 * starts from the agents' KV baselines, not from the timeline, applies what it receives (a
 * replica that started late, or missed messages, holds a state no fold of the timeline gives),
 * and is ahead of the writers' floor; proving at each checkpoint that its states equal the fold
 * of the committed timeline up to a gid would cost about what the fold does. The thread keeps the
 * fold exactly what seeks replay (the same code, the same rows) and takes it off the loop that
 * serves the live view; the lock makes it one fold per cluster, not one per replica.
 *
 * The floor is read on the console's thread (it needs the bus) and sent with each request: it
 * only grows, so a floor read a moment earlier is still one below which everything is committed.
 */
import { Worker } from 'node:worker_threads';
import { workerPaths } from '@/server/engine/workers/pool';
import type { LogFn } from '@/server/log';
import { CheckpointKeeper, ClusterCheckpoints, type KeeperRetention } from './checkpoints';
import { keeperLock } from './keeper-lock';
import type { OpenOptions } from '@/server/timeline-db/open';
import type { ClusterTimeline } from './timeline';

export interface KeeperThreadOptions {
  /** The timeline the worker opens for itself (the same database as the console's). */
  open: OpenOptions;
  /** The newest gid below which every event is committed (the writers' acknowledgement floor). */
  floor: () => Promise<number>;
  everyEvents?: number;
  minIntervalMs?: number;
  log: LogFn;
  /** Where the worker's files are (default: workerPaths; tests stand in). */
  paths?: () => { boot: string; entry: string; tsconfig: string };
}

/** What the console drives: the keeper thread, or the keeper on its own thread when it must. */
export interface Keeper {
  tick(): Promise<unknown>;
  retain(policy: { maxAgeMs: number }): Promise<KeeperRetention>;
  stop(): Promise<void>;
}

/** The keeper worker's entry, from the project root (bundled in the image: keeper-worker.mjs). */
export const KEEPER_ENTRY = ['server', 'cluster', 'timeline', 'keeper-worker.ts'] as const;

/**
 * The keeper thread when its files can be found (the image's bundle in PODSCOPE_WORKERS_DIR, or
 * in a checkout TypeScript from server/ through tsx, as the relist workers do); else — a server
 * shipped without either — the keeper on the console's own event loop, as before the thread,
 * with the same lock, and a warning: without a keeper there would be no checkpoints and no
 * retention at all.
 */
export function startKeeper(options: KeeperThreadOptions & { timeline: ClusterTimeline }): Keeper {
  const paths = options.paths ?? (() => workerPaths(KEEPER_ENTRY));
  try {
    paths();
    return new KeeperThread({ ...options, paths });
  } catch (err) {
    options.log(
      `checkpoints are kept on the console's event loop (${err instanceof Error ? err.message : String(err)})`,
      'warn',
    );
  }
  const lock = keeperLock(options.open);
  const keeper = new CheckpointKeeper({
    timeline: options.timeline,
    checkpoints: new ClusterCheckpoints(options.timeline),
    floor: options.floor,
    lock,
    ...(options.everyEvents !== undefined ? { everyEvents: options.everyEvents } : {}),
    ...(options.minIntervalMs !== undefined ? { minIntervalMs: options.minIntervalMs } : {}),
  });
  return {
    tick: () => keeper.tick(),
    retain: (policy) => keeper.retain(policy),
    stop: () => lock.close(),
  };
}

/** What the worker is given at its start (workerData.config). */
export interface KeeperWorkerConfig {
  open: OpenOptions;
  everyEvents?: number;
  minIntervalMs?: number;
}

/** A checkpoint the worker wrote. */
export interface WrittenCheckpoint {
  gid: number;
  tMax: number;
}

type Unsent =
  | { op: 'tick'; floor: number }
  | { op: 'retain'; floor: number; maxAgeMs: number }
  | { op: 'close' };

export type KeeperRequest = Unsent & { id: number };

export type KeeperValue = WrittenCheckpoint | KeeperRetention | undefined;

export type KeeperReply =
  { id: number; ok: true; value: KeeperValue } | { id: number; ok: false; error: string };

const STOP_WAIT_MS = 10_000;
const STOPPED = () => new Error('the checkpoint keeper thread is stopped');

export class KeeperThread implements Keeper {
  private worker: Worker | undefined;
  private next = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: KeeperReply) => void; reject: (e: Error) => void }
  >();
  private ticking: Promise<WrittenCheckpoint | undefined> | undefined;
  private stopped = false;

  constructor(private readonly options: KeeperThreadOptions) {}

  /**
   * One look (a new checkpoint when enough committed events lie past the newest one, and this
   * replica holds the lock). A look still running is shared, not queued behind.
   */
  tick(): Promise<WrittenCheckpoint | undefined> {
    if (this.stopped) return Promise.reject(STOPPED());
    this.ticking ??= (async () => {
      try {
        const floor = await this.options.floor();
        return (await this.call({ op: 'tick', floor })) as WrittenCheckpoint | undefined;
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  async retain(policy: { maxAgeMs: number }): Promise<KeeperRetention> {
    if (this.stopped) throw STOPPED();
    const floor = await this.options.floor();
    return (await this.call({ op: 'retain', floor, maxAgeMs: policy.maxAgeMs })) as KeeperRetention;
  }

  /** Ends the worker (its lock session with it, so another replica takes over). */
  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    try {
      await Promise.race([
        this.send(worker, { op: 'close' }),
        new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref()),
      ]);
    } catch {
      // It failed closing: it is terminated below all the same.
    }
    await worker.terminate();
    await exited;
  }

  private call(request: Unsent): Promise<KeeperValue> {
    if (this.stopped) return Promise.reject(STOPPED());
    return this.send(this.worker ?? this.spawn(), request);
  }

  private async send(worker: Worker, request: Unsent): Promise<KeeperValue> {
    const id = this.next++;
    const reply = await new Promise<KeeperReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } satisfies KeeperRequest);
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }

  private spawn(): Worker {
    const paths = (this.options.paths ?? (() => workerPaths(KEEPER_ENTRY)))();
    const config: KeeperWorkerConfig = {
      open: this.options.open,
      ...(this.options.everyEvents !== undefined ? { everyEvents: this.options.everyEvents } : {}),
      ...(this.options.minIntervalMs !== undefined
        ? { minIntervalMs: this.options.minIntervalMs }
        : {}),
    };
    const worker = new Worker(paths.boot, {
      workerData: { entry: paths.entry, tsconfig: paths.tsconfig, config },
      name: 'podscope-checkpoints',
    });
    worker.on('message', (m: KeeperReply) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      p?.resolve(m);
    });
    worker.on('error', (err) =>
      this.options.log(`checkpoint keeper thread: ${err.message}`, 'error'),
    );
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const lost = [...this.pending.values()];
      this.pending.clear();
      for (const p of lost) p.reject(new Error(`the checkpoint keeper thread exited (${code})`));
      // Not restarted here: the next look starts a new one.
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
