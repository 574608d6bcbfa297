/**
 * Wires a KubeView into the timeline: API-server Events are appended as they arrive, and drift
 * is recomputed after API changes and on a steady tick (a disagreement ages from propagating into
 * drift with no change on either side), appending PodUpdated/NodeUpdated only where it changed.
 * The engine owns the timeline; it hands in how to read the state and how to append.
 */
import { driftEvents } from '@/lib/drift/patches';
import type { ClusterDrift } from '@/lib/drift/types';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import type { ClusterState, NodeView } from '@/lib/timeline/state';
import type { NewK8sEvent } from './events';
import type { KubeChange } from './view';

/** The part of KubeView the bridge uses. */
export interface DriftSource {
  drift(nodes: Readonly<Record<string, NodeView>>, now: number): ClusterDrift;
  onEvent(listener: (event: NewK8sEvent) => void): () => void;
  onResourceChange(listener: (changes: KubeChange[]) => void): () => void;
}

export interface TimelineSink {
  /** The current state (the engine's snapshot()). */
  state(): ClusterState;
  append(events: UnsequencedEvent[]): void;
  now(): number;
}

export interface DriftBridgeOptions {
  /** Recompute drift at least this often (default 2 s). */
  intervalMs?: number;
  /** After an API change, wait this long for more before recomputing (default 200 ms). */
  settleMs?: number;
  /** Called when recomputing fails; the bridge keeps going. */
  onError?: (err: unknown) => void;
}

export class DriftBridge {
  private readonly offs: (() => void)[] = [];
  private interval: ReturnType<typeof setInterval> | undefined;
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly source: DriftSource,
    private readonly sink: TimelineSink,
    private readonly options: DriftBridgeOptions = {},
  ) {}

  start(): void {
    if (this.interval) return;
    this.offs.push(
      this.source.onEvent((e) => this.sink.append([e])),
      this.source.onResourceChange(() => this.soon()),
    );
    this.interval = setInterval(() => this.tick(), this.options.intervalMs ?? 2_000);
    this.interval.unref?.();
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
    clearInterval(this.interval);
    clearTimeout(this.settle);
    this.interval = undefined;
    this.settle = undefined;
  }

  /** Compares now and appends what changed; returns the events appended. */
  tick(): UnsequencedEvent[] {
    try {
      const now = this.sink.now();
      const { nodes } = this.sink.state();
      const events = driftEvents(nodes, this.source.drift(nodes, now), now);
      if (events.length > 0) this.sink.append(events);
      return events;
    } catch (err) {
      this.options.onError?.(err);
      return [];
    }
  }

  private soon(): void {
    if (this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      this.tick();
    }, this.options.settleMs ?? 200);
    this.settle.unref?.();
  }
}
