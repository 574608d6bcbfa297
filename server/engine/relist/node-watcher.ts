/**
 * One node's relist loop — Podscope's PLEG (upstream pkg/kubelet/pleg/generic.go, evented.go).
 *
 * Each pass: ListPodSandbox + ListContainers; then runtime-records.ts inspects what is new,
 * changed or still unresolved, diffs (diff.ts) and holds the new records; the outcome goes to the
 * engine, which derives and records. I/O sits at the edges; the diff in between is pure.
 *
 * - Never two relists of one node at once: a tick that finds one running is skipped and counted.
 * - A failed inspection keeps the old record and retries it next pass (the pod is re-read).
 * - With GetContainerEvents (event-stream.ts) the stream is a hint to relist now; a slow full
 *   relist keeps it honest. UNIMPLEMENTED or a broken stream falls back to polling at the relist
 *   period.
 */
import type { RuntimeContainer, RuntimeInfo, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { ContainerEventStream } from './event-stream';
import type { RuntimeClient, RuntimeStatusReport } from './runtime-client';
import { RuntimeRecords, type RelistOutcome } from './runtime-records';

export type { RelistOutcome } from './runtime-records';

export interface Clock {
  now(): number;
}

export interface WatcherTimings {
  relistMs: number;
  nodeStatusMs: number;
  fullRelistMs: number;
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

export class NodeWatcher {
  private readonly held = new RuntimeRecords();
  private readonly stream: ContainerEventStream;
  private relisting = false;
  /** A relist was asked for while one ran (an event arrived): run again right after. */
  private again = false;
  private failing = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private stopped = false;
  /** The sink, silenced once stopped (see stop()). */
  private readonly sink: WatcherSink;

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
    sink: WatcherSink,
    private readonly clock: Clock,
    private readonly timings: WatcherTimings,
    readonly lab = false,
  ) {
    this.sink = untilStopped(sink, () => this.stopped);
    this.stream = new ContainerEventStream(client, {
      notice: () => {
        if (this.mode !== 'events') {
          this.mode = 'events';
          this.sink.modeChanged(this.name, 'events', 'GetContainerEvents stream is delivering');
        }
        void this.relist('events');
      },
      broke: (err, unimplemented) => {
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
      },
    });
  }

  /** Starts the loops. Connection failures are reported and retried by the loops themselves. */
  start(): void {
    void this.connect();
    this.every(this.timings.relistMs, () => {
      if (this.mode === 'polling') void this.relist('relist');
      // A start that fails is not announced by every runtime (containerd 1.6 marks the container
      // EXITED 128 StartError without an event): while a container waits in CREATED, relist at
      // the relist period in events mode too, and do not take what it finds for a stalled stream.
      else if (this.held.awaitingStart()) void this.relist('relist', { confirming: true });
    });
    this.every(this.timings.fullRelistMs, () => {
      if (this.mode === 'events') void this.relist('relist');
    });
    this.every(this.timings.nodeStatusMs, () => void this.readStatus());
  }

  /**
   * Stops the loops and closes the client. Calls still in flight then fail with CANCELLED
   * ("client closed") or finish late: none of them reaches the sink, so stopping a node neither
   * logs failures nobody caused nor records a relist of a node no longer watched.
   */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.stream.stop();
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
    return this.held.list();
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
      void this.stream.watch();
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
    const noticesAtStart = this.stream.notices;
    try {
      const [listedSandboxes, listedContainers] = await Promise.all([
        this.client.listPodSandbox(),
        this.client.listContainers(),
      ]);
      if (!this.connected) {
        const info = await this.client.version();
        this.connected = true;
        this.sink.connected(this.name, info);
        void this.stream.watch();
      }
      const outcome = await this.held.absorb(
        listedSandboxes,
        listedContainers,
        {
          containerStatus: (id, sandboxId) => this.client.containerStatus(id, sandboxId),
          podSandboxStatus: (id) => this.client.podSandboxStatus(id),
          failed: (id, error) => this.sink.inspectFailed(this.name, id, error),
        },
        { node: this.name, startedAt, source, now: () => this.clock.now() },
      );
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
        this.stream.notices === noticesAtStart
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
}

/** `sink` with every report dropped once `stopped()` is true. */
function untilStopped(sink: WatcherSink, stopped: () => boolean): WatcherSink {
  const guard =
    <A extends unknown[]>(report: (...args: A) => void) =>
    (...args: A): void => {
      if (!stopped()) report(...args);
    };
  return {
    relisted: guard((outcome) => sink.relisted(outcome)),
    relistFailed: guard((node, at, error, first) => sink.relistFailed(node, at, error, first)),
    statusRead: guard((node, at, status, error) => sink.statusRead(node, at, status, error)),
    connected: guard((node, info) => sink.connected(node, info)),
    modeChanged: guard((node, mode, reason) => sink.modeChanged(node, mode, reason)),
    skippedTick: guard((node) => sink.skippedTick(node)),
    inspectFailed: guard((node, id, error) => sink.inspectFailed(node, id, error)),
  };
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

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
