import { Counter, Gauge, Histogram, Registry } from '@/server/metrics/registry';

/** The engine's Prometheus series (served at /metrics). */
export function createEngineMetrics() {
  const registry = new Registry();
  // The server process's own memory, read at each scrape (the soak test watches it for leaks).
  const heap = registry.register(
    new Gauge('process_heap_bytes', 'V8 heap in use by the server process (heapUsed), bytes.'),
  );
  const resident = registry.register(
    new Gauge('process_resident_memory_bytes', 'Resident set size of the server process, bytes.'),
  );
  registry.onCollect(() => {
    const m = process.memoryUsage();
    heap.set({}, m.heapUsed);
    resident.set({}, m.rss);
  });
  return {
    registry,
    relistDuration: registry.register(
      new Histogram(
        'podscope_relist_duration_seconds',
        'Duration of one relist of one node (list, inspect, derive, record).',
        [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ),
    ),
    relistErrors: registry.register(
      new Counter('podscope_relist_errors_total', 'Relists that failed, by node.'),
    ),
    skippedTicks: registry.register(
      new Counter(
        'podscope_relist_skipped_ticks_total',
        'Relist ticks skipped because the previous relist of the node was still running.',
      ),
    ),
    inspectErrors: registry.register(
      new Counter(
        'podscope_inspect_errors_total',
        'ContainerStatus/PodSandboxStatus calls that failed (the old record is kept and retried).',
      ),
    ),
    eventsEmitted: registry.register(
      new Counter('podscope_events_emitted_total', 'Timeline events recorded, by kind.'),
    ),
    eventsDropped: registry.register(
      new Counter(
        'podscope_events_dropped_total',
        'Events not delivered live to a subscriber that fell behind (it resumes from the store).',
      ),
    ),
    eventStreamFallbacks: registry.register(
      new Counter(
        'podscope_event_stream_fallbacks_total',
        'Times a node fell back from GetContainerEvents to polling, by reason.',
      ),
    ),
    clockOffset: registry.register(
      new Gauge(
        'podscope_node_clock_offset_seconds',
        "How far the node's clock is ahead of the server's (0 within the relist tolerance).",
      ),
    ),
    subscribers: registry.register(
      new Gauge('podscope_subscribers', 'Live timeline subscribers (browsers, CLI watchers).'),
    ),
    pods: registry.register(new Gauge('podscope_pods', 'Pods by phase per node, as derived.')),
    nodes: registry.register(
      new Gauge(
        'podscope_node_ready',
        'Node Ready condition per node (1 True, 0 False, -1 Unknown).',
      ),
    ),
  };
}
export type EngineMetrics = ReturnType<typeof createEngineMetrics>;
