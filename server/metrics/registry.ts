/**
 * Metrics with prom-client, the standard Node exporter. Each engine keeps its `podscope_*` series
 * in a registry of its own (tests run many engines in one process); the process's default
 * metrics — CPU, resident memory, heap, GC, event-loop lag, handles — are collected once per
 * process into another, and /metrics serves both as one exposition.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

let processMetrics: Registry | undefined;

/** The process's default metrics, registered on first use. */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/** Registries rendered as one text exposition (format 0.0.4). */
export function exposition(registries: Registry[]): Promise<string> {
  return Registry.merge(registries).metrics();
}

/** The exposition's content type. */
export const EXPOSITION_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
