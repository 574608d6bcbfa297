/**
 * One node's relist loop — Podscope's PLEG (upstream pkg/kubelet/pleg/generic.go, evented.go).
 *
 * Each pass: ListPodSandbox + ListContainers; ContainerStatus / PodSandboxStatus only for what is
 * new, changed or still unresolved; then the diff (diff.ts) and a hand-over of the touched pods
 * to the engine, which derives and records. I/O sits at the edges; the diff in between is pure.
 *
 * - Never two relists of one node at once: a tick that finds one running is skipped and counted.
 * - A failed inspection keeps the old record and retries it next pass (the pod is re-read).
 * - With GetContainerEvents the stream is a hint to relist now; a slow full relist keeps it
 *   honest. UNIMPLEMENTED or a broken stream falls back to polling at the relist period.
 */
import type {
  RuntimeContainer,
  RuntimeInfo,
  RuntimePodStatus,
  RuntimeSandbox,
} from '@/lib/kubelet/runtime';
import { containerTransitions, planInspection, sandboxTransitions, type Transition } from './diff';
import type { RuntimeClient, RuntimeStatusReport } from './runtime-client';

export interface Clock {
  now(): number;
}

export interface WatcherTimings {
  relistMs: number;
  nodeStatusMs: number;
  fullRelistMs: number;
}

/** What one successful relist hands to the engine. */
export interface RelistOutcome {
  node: string;
  startedAt: number;
  finishedAt: number;
  source: 'relist' | 'events';
  transitions: Transition[];
  /** Runtime view of every pod whose records changed, failed inspection, or is still present. */
  pods: Map<string, RuntimePodStatus>;
  /** Uids with a transition or a failed inspection in this pass (the engine re-derives these). */
  touched: Set<string>;
  /** Uids that vanished from the runtime entirely. */
  removed: Set<string>;
  /** Previous records of containers, for back-off bookkeeping (a new attempt after an exit). */
  previousContainers: ReadonlyMap<string, RuntimeContainer>;
}

export interface WatcherSink {
  relisted(outcome: RelistOutcome): void;
  relistFailed(node: string, at: number, error: Error, firstFailure: boolean): void;
  statusRead(
    node: string,
    at: number,
    status: RuntimeStatusReport | undefined,
    error?: Error,
  ): void;
  connected(node: string, info: RuntimeInfo): void;
  modeChanged(node: string, mode: 'events' | 'polling', reason: string): void;
  skippedTick(node: string): void;
  inspectFailed(node: string, id: string, error: Error): void;
}

const INSPECT_CONCURRENCY = 16;
const STREAM_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** Evented PLEG gives up on the stream after this many failures (pkg/kubelet/pleg/evented.go). */
const MAX_STREAM_FAILURES = 5;

export class NodeWatcher {
  private sandboxes = new Map<string, RuntimeSandbox>();
  private containers = new Map<string, RuntimeContainer>();
  private readonly retryPods = new Set<string>();
  private relisting = false;
  /** A relist was asked for while one ran (an event arrived): run again right after. */
  private again = false;
  private failing = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private stopped = false;
  private readonly streamAbort = new AbortController();
  private streamFailures = 0;
  /** GetContainerEvents notices received so far (a stalled stream stops counting). */
  private notices = 0;
  /** The last pass's list answers, when every inspection that pass planned succeeded. */
  private settled: { sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] } | undefined;

  mode: 'events' | 'polling' = 'polling';
  relists = 0;
  skipped = 0;
  lastRelistAt: number | undefined;
  lastContactAt: number | undefined;
  lastError: string | undefined;
  connected = false;

  constructor(
    readonly name: string,
    readonly client: RuntimeClient,
    private readonly sink: WatcherSink,
    private readonly clock: Clock,
    private readonly timings: WatcherTimings,
    readonly lab = false,
  ) {}

  /** Starts the loops. Connection failures are reported and retried by the loops themselves. */
  start(): void {
    void this.connect();
    this.every(this.timings.relistMs, () => {
      if (this.mode === 'polling') void this.relist('relist');
      // A start that fails is not announced by every runtime (containerd 1.6 marks the container
      // EXITED 128 StartError without an event): while a container waits in CREATED, relist at
      // the relist period in events mode too, and do not take what it finds for a stalled stream.
      else if (this.awaitingStart()) void this.relist('relist', { confirming: true });
    });
    this.every(this.timings.fullRelistMs, () => {
      if (this.mode === 'events') void this.relist('relist');
    });
    this.every(this.timings.nodeStatusMs, () => void this.readStatus());
  }

  /** Some container was last seen created and not started. */
  private awaitingStart(): boolean {
    for (const c of this.containers.values()) if (c.state === 'created') return true;
    return false;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.streamAbort.abort();
    this.client.close();
  }

  /**
   * One complete read without loops (the CLI's snapshot): Version, Status, one relist. Throws
   * the runtime's error when the node cannot be read.
   */
  async once(): Promise<void> {
    const info = await this.client.version();
    this.connected = true;
    this.lastContactAt = this.clock.now();
    this.sink.connected(this.name, info);
    await this.readStatus();
    await this.relist('relist');
    if (this.lastError !== undefined) throw new Error(this.lastError);
  }

  /** Records currently held (for tests and snapshots). */
  records(): { sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] } {
    return { sandboxes: [...this.sandboxes.values()], containers: [...this.containers.values()] };
  }

  /**
   * Runs `fn` every `ms`, starting at this node's own phase of the period (phase()), so that many
   * nodes connected together do not all relist in the same millisecond: their answers then arrive
   * spread over the period instead of queueing behind each other (and their buffers living long
   * enough to be promoted and force full GCs).
   */
  private every(ms: number, fn: () => void): void {
    const first = setTimeout(
      () => {
        if (this.stopped) return;
        fn();
        this.timers.push(setInterval(fn, ms));
      },
      phase(this.name, ms),
    );
    this.timers.push(first);
  }

  private async connect(): Promise<void> {
    try {
      const info = await this.client.version();
      this.connected = true;
      this.lastContactAt = this.clock.now();
      this.sink.connected(this.name, info);
      await this.readStatus();
      await this.relist('relist');
      void this.watchEvents();
    } catch (err) {
      this.connected = false;
      this.lastError = message(err);
      // The relist loop keeps trying; the first success completes the connection.
      const first = !this.failing;
      this.failing = true;
      this.sink.relistFailed(this.name, this.clock.now(), asError(err), first);
    }
  }

  async readStatus(): Promise<void> {
    if (this.stopped) return;
    try {
      const status = await this.client.status();
      this.lastContactAt = this.clock.now();
      this.sink.statusRead(this.name, this.clock.now(), status);
    } catch (err) {
      this.sink.statusRead(this.name, this.clock.now(), undefined, asError(err));
    }
  }

  /** One relist pass. Public so tests can drive it without timers. */
  async relist(
    source: 'relist' | 'events' = 'relist',
    { confirming = false }: { confirming?: boolean } = {},
  ): Promise<void> {
    if (this.stopped) return;
    if (this.relisting) {
      if (source === 'events') this.again = true;
      else {
        this.skipped++;
        this.sink.skippedTick(this.name);
      }
      return;
    }
    this.relisting = true;
    const startedAt = this.clock.now();
    const noticesAtStart = this.notices;
    try {
      const [listedSandboxes, listedContainers] = await Promise.all([
        this.client.listPodSandbox(),
        this.client.listContainers(),
      ]);
      if (!this.connected) {
        const info = await this.client.version();
        this.connected = true;
        this.sink.connected(this.name, info);
        void this.watchEvents();
      }
      const outcome = await this.absorb(listedSandboxes, listedContainers, startedAt, source);
      this.relists++;
      this.lastRelistAt = outcome.finishedAt;
      this.lastContactAt = outcome.finishedAt;
      this.lastError = undefined;
      this.failing = false;
      this.sink.relisted(outcome);
      if (
        source === 'relist' &&
        !confirming &&
        this.mode === 'events' &&
        outcome.transitions.length > 0 &&
        this.notices === noticesAtStart
      ) {
        // The slow full relist found changes the open stream never announced: the stream has
        // stalled. Poll at the relist period until it delivers again (the next notice switches back).
        this.mode = 'polling';
        this.sink.modeChanged(
          this.name,
          'polling',
          'stalled: GetContainerEvents missed changes a full relist found',
        );
      }
    } catch (err) {
      this.lastError = message(err);
      // Not connected until a relist succeeds again; the next one re-reads Version (a restarted
      // runtime may have been upgraded).
      this.connected = false;
      const first = !this.failing;
      this.failing = true;
      this.sink.relistFailed(this.name, this.clock.now(), asError(err), first);
    } finally {
      this.relisting = false;
    }
    if (this.again && !this.stopped) {
      this.again = false;
      await this.relist('events');
    }
  }

  private async absorb(
    listedSandboxes: RuntimeSandbox[],
    listedContainers: RuntimeContainer[],
    startedAt: number,
    source: 'relist' | 'events',
  ): Promise<RelistOutcome> {
    if (
      this.settled &&
      this.retryPods.size === 0 &&
      sameRecords(this.settled.sandboxes, listedSandboxes) &&
      sameRecords(this.settled.containers, listedContainers)
    ) {
      // The runtime answered with the very records of the last pass (server/cri reuses the
      // records of an unchanged answer), and that pass left nothing to inspect: nothing changed.
      return this.outcome(startedAt, source, [], new Set(), this.containers);
    }
    this.settled = undefined;
    const plan = planInspection(this.containers, listedContainers, this.sandboxes, listedSandboxes);
    if (
      plan.containers.length === 0 &&
      plan.sandboxes.length === 0 &&
      this.retryPods.size === 0 &&
      this.sameIds(listedSandboxes, listedContainers)
    ) {
      // Nothing to inspect, nothing appeared or vanished: the held records stand as they are and
      // no transition is possible (the steady state of a quiet node, most relists).
      this.settled = { sandboxes: listedSandboxes, containers: listedContainers };
      return this.outcome(startedAt, source, [], new Set(), this.containers);
    }
    const planned = new Set(plan.containers);
    const sandboxOf = new Map<string, string>();
    for (const c of listedContainers) if (planned.has(c.id)) sandboxOf.set(c.id, c.sandboxId);
    const inspectedContainers = await this.inspectAll(plan.containers, (id) =>
      this.client.containerStatus(id, sandboxOf.get(id) ?? ''),
    );
    const inspectedSandboxes = await this.inspectAll(plan.sandboxes, (id) =>
      this.client.podSandboxStatus(id),
    );

    const sandboxes = new Map<string, RuntimeSandbox>();
    for (const s of listedSandboxes) {
      const fresh = inspectedSandboxes.get(s.id);
      const prev = this.sandboxes.get(s.id);
      sandboxes.set(
        s.id,
        fresh
          ? shareMaps(fresh, s)
          : prev && prev.state === s.state
            ? prev
            : { ...s, inspected: false },
      );
    }
    const uidOfSandbox = (id: string) => sandboxes.get(id)?.uid ?? this.sandboxes.get(id)?.uid;

    const failed = new Set<string>();
    const containers = new Map<string, RuntimeContainer>();
    for (const c of listedContainers) {
      const fresh = inspectedContainers.get(c.id);
      const prev = this.containers.get(c.id);
      if (fresh) containers.set(c.id, shareMaps(fresh, c));
      else if (planned.has(c.id)) {
        // Inspection failed: keep the old record (the diff repeats next pass) or, if new, hold
        // the listed record back so it is reported once it can be read.
        const uid = podUidOf(c, uidOfSandbox);
        if (uid) failed.add(uid);
        if (prev) containers.set(c.id, prev);
      } else containers.set(c.id, prev ?? c);
    }

    const transitions: Transition[] = [];
    const touched = new Set<string>(this.retryPods);
    this.retryPods.clear();
    for (const uid of failed) this.retryPods.add(uid);

    // Sandboxes and containers that vanished, then every current one (same order as before:
    // old ids first, in their order, then new ids).
    for (const id of this.sandboxes.keys()) this.sandboxDiff(id, sandboxes, transitions, touched);
    for (const id of sandboxes.keys())
      if (!this.sandboxes.has(id)) this.sandboxDiff(id, sandboxes, transitions, touched);
    for (const id of this.containers.keys())
      this.containerDiff(id, containers, uidOfSandbox, transitions, touched);
    for (const id of containers.keys())
      if (!this.containers.has(id))
        this.containerDiff(id, containers, uidOfSandbox, transitions, touched);
    for (const uid of failed) touched.add(uid);

    const previousContainers = this.containers;
    this.sandboxes = sandboxes;
    this.containers = containers;
    if (
      failed.size === 0 &&
      inspectedContainers.size === plan.containers.length &&
      inspectedSandboxes.size === plan.sandboxes.length
    )
      this.settled = { sandboxes: listedSandboxes, containers: listedContainers };
    return this.outcome(startedAt, source, transitions, touched, previousContainers);
  }

  /** Whether the lists name exactly the ids held now (sizes match and every listed id is held). */
  private sameIds(
    listedSandboxes: readonly RuntimeSandbox[],
    listedContainers: readonly RuntimeContainer[],
  ): boolean {
    if (
      listedSandboxes.length !== this.sandboxes.size ||
      listedContainers.length !== this.containers.size
    )
      return false;
    for (const s of listedSandboxes) if (!this.sandboxes.has(s.id)) return false;
    for (const c of listedContainers) if (!this.containers.has(c.id)) return false;
    return true;
  }

  private sandboxDiff(
    id: string,
    now: ReadonlyMap<string, RuntimeSandbox>,
    out: Transition[],
    touched: Set<string>,
  ): void {
    for (const tr of sandboxTransitions(this.sandboxes.get(id), now.get(id))) {
      out.push(tr);
      touched.add(tr.podUid);
    }
  }

  private containerDiff(
    id: string,
    now: ReadonlyMap<string, RuntimeContainer>,
    uidOfSandbox: (id: string) => string | undefined,
    out: Transition[],
    touched: Set<string>,
  ): void {
    const old = this.containers.get(id);
    const current = now.get(id);
    // A container that vanished because its inspection failed is not gone: it was kept above.
    const c = current ?? old;
    if (!c) return;
    const uid = podUidOf(c, uidOfSandbox);
    if (!uid) return;
    for (const tr of containerTransitions(old, current, uid)) {
      out.push(tr);
      touched.add(uid);
    }
  }

  /**
   * The outcome of a pass over the records now held. Pods are grouped on first use only: the
   * engine asks for the touched and time-due ones, and a quiet relist usually has neither.
   */
  private outcome(
    startedAt: number,
    source: 'relist' | 'events',
    transitions: Transition[],
    touched: Set<string>,
    previousContainers: ReadonlyMap<string, RuntimeContainer>,
  ): RelistOutcome {
    const sandboxes = this.sandboxes;
    const containers = this.containers;
    const uidOfSandbox = (id: string) => sandboxes.get(id)?.uid;
    let pods: Map<string, RuntimePodStatus> | undefined;
    const removed = new Set<string>();
    if (touched.size > 0) {
      pods = groupPods(sandboxes, containers, uidOfSandbox);
      for (const uid of touched) if (!pods.has(uid)) removed.add(uid);
    }
    return {
      node: this.name,
      startedAt,
      finishedAt: this.clock.now(),
      source,
      transitions,
      get pods() {
        pods ??= groupPods(sandboxes, containers, uidOfSandbox);
        return pods;
      },
      touched,
      removed,
      previousContainers,
    };
  }

  private async inspectAll<T>(
    ids: string[],
    read: (id: string) => Promise<T>,
  ): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        if (id === undefined) break;
        try {
          out.set(id, await read(id));
        } catch (err) {
          this.sink.inspectFailed(this.name, id, asError(err));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(INSPECT_CONCURRENCY, ids.length) }, worker));
    return out;
  }

  /** GetContainerEvents: each notice triggers a relist; failures fall back to polling. */
  private async watchEvents(): Promise<void> {
    if (this.stopped || this.streamFailures >= MAX_STREAM_FAILURES) return;
    try {
      const stream = this.client.containerEvents(this.streamAbort.signal);
      let first = true;
      for await (const _notice of stream) {
        this.notices++;
        if (first) {
          first = false;
          this.streamFailures = 0;
        }
        if (this.mode !== 'events') {
          this.mode = 'events';
          this.sink.modeChanged(this.name, 'events', 'GetContainerEvents stream is delivering');
        }
        void this.relist('events');
      }
      if (this.stopped) return;
      throw new Error('GetContainerEvents stream ended');
    } catch (err) {
      if (this.stopped) return;
      const unimplemented = (err as { unimplemented?: boolean }).unimplemented === true;
      if (this.mode === 'events' || unimplemented) {
        this.mode = 'polling';
        this.sink.modeChanged(
          this.name,
          'polling',
          unimplemented
            ? 'GetContainerEvents is UNIMPLEMENTED by this runtime'
            : `event stream broke: ${message(err)}`,
        );
      }
      if (unimplemented) return;
      this.streamFailures++;
      const delay =
        STREAM_RETRY_MS[Math.min(this.streamFailures - 1, STREAM_RETRY_MS.length - 1)] ?? 30_000;
      this.timers.push(setTimeout(() => void this.watchEvents(), delay));
    }
  }
}

/** The same record objects in the same order. */
function sameRecords<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A stable offset in [0, ms) for a node: FNV-1a of its name, scaled to the period. */
export function phase(name: string, ms: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return Math.floor(((h >>> 0) / 2 ** 32) * ms);
}

/**
 * The inspected record with the listed record's labels and annotations objects when they hold
 * the same entries (they usually do: the CRI returns the same maps from List and Status), so a
 * node's records keep one copy of each map instead of two.
 */
function shareMaps<
  T extends {
    labels: Readonly<Record<string, string>>;
    annotations: Readonly<Record<string, string>>;
  },
>(
  inspected: T,
  listed: {
    labels: Readonly<Record<string, string>>;
    annotations: Readonly<Record<string, string>>;
  },
): T {
  const labels = sameEntries(inspected.labels, listed.labels);
  const annotations = sameEntries(inspected.annotations, listed.annotations);
  if (!labels && !annotations) return inspected;
  return {
    ...inspected,
    ...(labels ? { labels: listed.labels } : {}),
    ...(annotations ? { annotations: listed.annotations } : {}),
  };
}

function sameEntries(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (a[k] !== b[k] || !Object.hasOwn(b, k)) return false;
  return true;
}

function podUidOf(
  c: RuntimeContainer,
  uidOfSandbox: (id: string) => string | undefined,
): string | undefined {
  return c.labels['io.kubernetes.pod.uid'] ?? uidOfSandbox(c.sandboxId);
}

function groupPods(
  sandboxes: Map<string, RuntimeSandbox>,
  containers: Map<string, RuntimeContainer>,
  uidOfSandbox: (id: string) => string | undefined,
): Map<string, RuntimePodStatus> {
  const pods = new Map<string, RuntimePodStatus>();
  const pod = (uid: string, name: string, namespace: string) => {
    let p = pods.get(uid);
    if (!p) {
      p = { uid, name, namespace, sandboxes: [], containers: [] };
      pods.set(uid, p);
    }
    return p;
  };
  for (const s of sandboxes.values()) pod(s.uid, s.name, s.namespace).sandboxes.push(s);
  for (const c of containers.values()) {
    const uid = podUidOf(c, uidOfSandbox);
    if (!uid) continue;
    pod(
      uid,
      c.labels['io.kubernetes.pod.name'] ?? '',
      c.labels['io.kubernetes.pod.namespace'] ?? '',
    ).containers.push(c);
  }
  for (const p of pods.values()) {
    p.sandboxes.sort((a, b) => b.createdAt - a.createdAt);
    if (!p.name) p.name = p.sandboxes[0]?.name ?? p.uid;
    if (!p.namespace) p.namespace = p.sandboxes[0]?.namespace ?? 'default';
  }
  return pods;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
