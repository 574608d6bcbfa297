/**
 * A small reflector: list, then watch from the list's resourceVersion, keeping a local store in
 * step with the API server. Modelled on client-go's Reflector (tools/cache/reflector.go
 * ListAndWatch): the same rules, written for @kubernetes/client-node's `Watch`.
 *
 * Why not client-node's ListWatch: in 2.0.1 it does not ask for bookmarks, and after a network
 * error (dropped connection, server down) it reports the error and stops instead of reconnecting.
 *
 * Rules:
 * - List in pages (list.ts); the list's resourceVersion is where the watch starts.
 * - Watch with allowWatchBookmarks=true; every event and every BOOKMARK moves the tracked
 *   resourceVersion, so a reconnect resumes exactly after the last thing seen.
 * - 410 Gone — as the watch's HTTP status or as an ERROR event with code 410 — means that
 *   resourceVersion has been compacted away: relist (at once), and diff the new list against the
 *   store so every change missed meanwhile still comes out as added/modified/deleted.
 * - Any other failure (connection refused or dropped, 5xx, an ERROR event) keeps the store and
 *   the resourceVersion and reconnects after a bounded, jittered back-off.
 * - A watch the server ends normally (timeoutSeconds) or that times out client-side reconnects
 *   at once from the tracked resourceVersion — unless it ended within a second without a single
 *   event, which is treated as a failure (client-go: "very short watch").
 */
import { Backoff, sleep as realSleep, type BackoffOptions, type Sleep } from './backoff';
import { listAll, statusCode } from './list';
import type { KubeObject, ResourceSpec } from './resource';

export type { KubeObject, ResourceSpec } from './resource';

/** The subset of client-node's Watch the reflector uses (so tests could stand in, though ours use the real one). */
export interface WatchLike {
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: unknown, watchObj?: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController>;
}

export type ChangeType = 'added' | 'modified' | 'deleted';

export interface Change<T> {
  type: ChangeType;
  object: T;
  /** The previous version, for modified and deleted. */
  old?: T;
  /** True when the change was found by a relist diff rather than a watch event. */
  relist: boolean;
}

export interface ReflectorStatus {
  resource: string;
  /** The first list has completed (the store is usable). */
  synced: boolean;
  /** A watch is open right now. */
  connected: boolean;
  /**
   * The last list or watch attempt failed and none has succeeded since: the store may be behind.
   * (A watch that is merely between reconnects after a normal end is not failing.)
   */
  failing: boolean;
  resourceVersion: string;
  lastError?: string;
  lastErrorAt?: number;
  /** Lists after the first one (each after a 410 or a failed list). */
  relists: number;
  /** Watch requests made. */
  watches: number;
  bookmarks: number;
  objects: number;
}

export interface ReflectorOptions {
  pageSize?: number;
  backoff?: Partial<BackoffOptions>;
  /** Server-side watch timeout, seconds; client-go picks 5–10 min at random. */
  watchTimeoutSeconds?: () => number;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
}

type WatchEnd =
  | { kind: 'stopped' }
  | { kind: 'gone' }
  | { kind: 'closed'; sawEvents: boolean; shortMs?: number }
  | { kind: 'timeout' }
  | { kind: 'error'; error: string; sawEvents: boolean };

interface K8sStatusLike {
  code?: number;
  reason?: string;
  message?: string;
}

/** A watch that ends cleanly sooner than this without a single event counts as a failure. */
const SHORT_WATCH_MS = 1_000;

const keyOf = (o: KubeObject): string =>
  o.metadata?.uid ?? `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export class Reflector<T extends KubeObject> {
  private store = new Map<string, T>();
  private rv = '';
  private synced = false;
  private connected = false;
  private failing = false;
  private lastError: string | undefined;
  private lastErrorAt: number | undefined;
  private lists = 0;
  private watches = 0;
  private bookmarks = 0;
  private running: Promise<void> | undefined;
  private abort = new AbortController();
  private closeWatch: (() => void) | undefined;
  private readonly backoff: Backoff;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly listeners = new Set<(changes: Change<T>[]) => void>();
  private syncWaiters: (() => void)[] = [];

  constructor(
    private readonly spec: ResourceSpec<T>,
    private readonly watcher: WatchLike,
    private readonly options: ReflectorOptions = {},
  ) {
    this.backoff = new Backoff(options.backoff, options.random);
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
  }

  /** Listeners get every change batch: one per watch event, one per (re)list diff. */
  onChanges(listener: (changes: Change<T>[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.abort = new AbortController();
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.closeWatch?.();
    await this.running;
    this.connected = false;
  }

  /** Resolves once the first list has landed in the store, or when stopped. */
  waitForSync(): Promise<void> {
    if (this.synced || this.abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  get(key: string): T | undefined {
    return this.store.get(key);
  }

  list(): T[] {
    return [...this.store.values()];
  }

  status(): ReflectorStatus {
    return {
      resource: this.spec.name,
      synced: this.synced,
      connected: this.connected,
      failing: this.failing,
      resourceVersion: this.rv,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.lastErrorAt !== undefined ? { lastErrorAt: this.lastErrorAt } : {}),
      relists: Math.max(0, this.lists - 1),
      watches: this.watches,
      bookmarks: this.bookmarks,
      objects: this.store.size,
    };
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    let needList = true;
    while (!signal.aborted) {
      if (needList) {
        try {
          await this.listAndReplace();
          needList = false;
        } catch (err) {
          if (signal.aborted) break;
          this.fail(`list ${this.spec.path}: ${describeError(err)}`);
          await this.sleep(this.backoff.next(), signal);
          continue;
        }
      }
      const end = await this.watchOnce();
      this.connected = false;
      switch (end.kind) {
        case 'stopped':
          return;
        case 'gone':
          // Our resourceVersion was compacted: relist now (client-go does not back off here).
          needList = true;
          break;
        case 'timeout':
          break;
        case 'closed':
          if (end.sawEvents) this.backoff.reset();
          else if (end.shortMs !== undefined) {
            // Closed at once with nothing in it (a proxy or a struggling server): like client-go's
            // "very short watch", back off rather than spin.
            this.fail(`watch ${this.spec.path}: closed after ${end.shortMs} ms without any event`);
            await this.sleep(this.backoff.next(), signal);
          }
          break;
        case 'error':
          if (end.sawEvents) this.backoff.reset();
          this.fail(`watch ${this.spec.path} from resourceVersion ${this.rv}: ${end.error}`);
          await this.sleep(this.backoff.next(), signal);
          break;
      }
    }
  }

  private fail(message: string): void {
    this.failing = true;
    this.lastError = message;
    this.lastErrorAt = this.now();
  }

  private async listAndReplace(): Promise<void> {
    const { items, resourceVersion } = await listAll(
      this.spec,
      this.options.pageSize,
      this.abort.signal,
    );
    if (this.abort.signal.aborted) return;
    this.lists++;
    const next = new Map<string, T>();
    const changes: Change<T>[] = [];
    for (const obj of items) {
      const key = keyOf(obj);
      next.set(key, obj);
      const old = this.store.get(key);
      if (!old) changes.push({ type: 'added', object: obj, relist: true });
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
        changes.push({ type: 'modified', object: obj, old, relist: true });
      }
    }
    for (const [key, old] of this.store) {
      if (!next.has(key)) changes.push({ type: 'deleted', object: old, old, relist: true });
    }
    this.store = next;
    this.rv = resourceVersion;
    this.backoff.reset();
    this.failing = false;
    this.lastError = undefined;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
    this.emit(changes);
  }

  private watchOnce(): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve) => {
      void this.openWatch(resolve);
    });
  }

  private async openWatch(resolve: (end: WatchEnd) => void): Promise<void> {
    const signal = this.abort.signal;
    let finished = false;
    let gone = false;
    let errorEvent: string | undefined;
    let sawEvents = false;
    const openedAt = performance.now();
    const finish = (end: WatchEnd) => {
      if (finished) return;
      finished = true;
      this.closeWatch = undefined;
      resolve(end);
    };
    const done = (err: unknown) => {
      if (signal.aborted) return finish({ kind: 'stopped' });
      if (gone || statusCode(err) === 410) return finish({ kind: 'gone' });
      if (err && isTimeout(err)) return finish({ kind: 'timeout' });
      if (err) return finish({ kind: 'error', error: describeError(err), sawEvents });
      if (errorEvent) return finish({ kind: 'error', error: errorEvent, sawEvents });
      const lasted = Math.round(performance.now() - openedAt);
      finish({
        kind: 'closed',
        sawEvents,
        ...(lasted < SHORT_WATCH_MS ? { shortMs: lasted } : {}),
      });
    };
    const onEvent = (phase: string, obj: unknown) => {
      if (finished || signal.aborted) return;
      if (phase === 'ERROR') {
        const status = (obj ?? {}) as K8sStatusLike;
        if (status.code === 410) gone = true;
        else
          errorEvent =
            `ERROR event ${status.code ?? '?'} ${status.reason ?? ''}: ${status.message ?? ''}`.trim();
        return;
      }
      sawEvents = true;
      this.apply(phase, obj);
    };
    if (signal.aborted) return finish({ kind: 'stopped' });
    this.watches++;
    const query = {
      ...this.spec.query,
      resourceVersion: this.rv,
      allowWatchBookmarks: true,
      timeoutSeconds: this.options.watchTimeoutSeconds?.() ?? 300 + Math.floor(Math.random() * 300),
    };
    try {
      const controller = await this.watcher.watch(this.spec.path, query, onEvent, done);
      if (finished) return;
      this.closeWatch = () => controller.abort();
      this.connected = true;
      this.failing = false;
      if (signal.aborted) controller.abort();
    } catch (err) {
      done(err);
    }
  }

  private apply(phase: string, raw: unknown): void {
    const meta = (raw as KubeObject | undefined)?.metadata;
    if (phase === 'BOOKMARK') {
      this.bookmarks++;
      if (meta?.resourceVersion) this.rv = meta.resourceVersion;
      return;
    }
    if (phase !== 'ADDED' && phase !== 'MODIFIED' && phase !== 'DELETED') return;
    const obj = this.spec.deserialize(raw);
    const key = keyOf(obj);
    const old = this.store.get(key);
    let change: Change<T>;
    if (phase === 'DELETED') {
      this.store.delete(key);
      change = { type: 'deleted', object: obj, ...(old ? { old } : {}), relist: false };
    } else {
      this.store.set(key, obj);
      change = old
        ? { type: 'modified', object: obj, old, relist: false }
        : { type: 'added', object: obj, relist: false };
    }
    if (obj.metadata?.resourceVersion) this.rv = obj.metadata.resourceVersion;
    this.emit([change]);
  }

  private emit(changes: Change<T>[]): void {
    if (changes.length === 0) return;
    for (const l of this.listeners) {
      try {
        l(changes);
      } catch {
        // A listener's failure must not break the watch or the store; listeners guard themselves.
      }
    }
  }
}

function isTimeout(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'TimeoutError'
  );
}

export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const code = statusCode(err);
    const extra = cause instanceof Error ? ` (${cause.message})` : '';
    return `${code !== undefined ? `HTTP ${code} ` : ''}${err.message}${extra}`;
  }
  return String(err);
}
