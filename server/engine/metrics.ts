/**
 * The engine's Prometheus series (served at /metrics beside the process's default metrics).
 * Counters and the histogram move as things happen; the gauges are set from the committed state
 * just before each scrape (setGauges, from Engine.metrics).
 */
import type { ClusterState } from '@/lib/timeline/state';
import { Counter, Gauge, Histogram, Registry } from '@/server/metrics/registry';

export function createEngineMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    relistDuration: new Histogram({
      name: 'podscope_relist_duration_seconds',
      help: 'Duration of one relist of one node (list, inspect, derive, record).',
      labelNames: ['node'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    relistErrors: new Counter({
      name: 'podscope_relist_errors_total',
      help: 'Relists that failed, by node.',
      labelNames: ['node'] as const,
      registers,
    }),
    skippedTicks: new Counter({
      name: 'podscope_relist_skipped_ticks_total',
      help: 'Relist ticks skipped because the previous relist of the node was still running.',
      labelNames: ['node'] as const,
      registers,
    }),
    inspectErrors: new Counter({
      name: 'podscope_inspect_errors_total',
      help: 'ContainerStatus/PodSandboxStatus calls that failed (the old record is kept and retried).',
      labelNames: ['node'] as const,
      registers,
    }),
    eventsEmitted: new Counter({
      name: 'podscope_events_emitted_total',
      help: 'Timeline events recorded, by kind.',
      labelNames: ['kind'] as const,
      registers,
    }),
    eventsDropped: new Counter({
      name: 'podscope_events_dropped_total',
      help: 'Events not delivered live to a subscriber that fell behind (it resumes from the store).',
      registers,
    }),
    eventStreamFallbacks: new Counter({
      name: 'podscope_event_stream_fallbacks_total',
      help: 'Times a node fell back from GetContainerEvents to polling, by reason.',
      labelNames: ['node', 'reason'] as const,
      registers,
    }),
    clockOffset: new Gauge({
      name: 'podscope_node_clock_offset_seconds',
      help: "How far the node's clock is ahead of the server's (0 within the relist tolerance).",
      labelNames: ['node'] as const,
      registers,
    }),
    workerHeap: new Gauge({
      name: 'podscope_relist_worker_heap_bytes',
      help: "V8 heap in use by each relist worker thread, reported every second (each has its own heap and GC; the process's nodejs_heap_* series are the main thread's).",
      labelNames: ['worker'] as const,
      registers,
    }),
    subscribers: new Gauge({
      name: 'podscope_subscribers',
      help: 'Live timeline subscribers (browsers, CLI watchers).',
      registers,
    }),
    pods: new Gauge({
      name: 'podscope_pods',
      help: 'Pods by phase per node, as derived.',
      labelNames: ['node', 'phase'] as const,
      registers,
    }),
    nodes: new Gauge({
      name: 'podscope_node_ready',
      help: 'Node Ready condition per node (1 True, 0 False, -1 Unknown).',
      labelNames: ['node'] as const,
      registers,
    }),
  };
}
export type EngineMetrics = ReturnType<typeof createEngineMetrics>;

/** Sets the gauges from the committed state, just before a scrape (Engine.metrics). */
export function setGauges(
  m: EngineMetrics,
  from: { subscribers: number; dropped: number; committed: ClusterState },
): void {
  m.subscribers.set(from.subscribers);
  // The bus keeps the total; the counter shows it.
  m.eventsDropped.reset();
  m.eventsDropped.inc(from.dropped);
  m.pods.reset();
  m.nodes.reset();
  for (const node of Object.values(from.committed.nodes)) {
    const counts: Record<string, number> = { Pending: 0, Running: 0, Succeeded: 0, Failed: 0 };
    for (const p of Object.values(node.pods))
      counts[p.status.phase ?? 'Pending'] = (counts[p.status.phase ?? 'Pending'] ?? 0) + 1;
    for (const [phase, count] of Object.entries(counts))
      m.pods.set({ node: node.name, phase }, count);
    const ready = node.conditions.find((c) => c.type === 'Ready')?.status;
    m.nodes.set({ node: node.name }, ready === 'True' ? 1 : ready === 'False' ? 0 : -1);
  }
}
