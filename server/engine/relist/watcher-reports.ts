/**
 * What a node's relist loop reports that goes only to metrics and the log: the event stream
 * falling back to polling (and back), ticks skipped while a relist still ran, inspections that
 * failed. The node engine (node-engine.ts) handles the rest of the watcher's sink.
 */
import type { LogFn } from '@/server/log';
import type { EngineMetrics } from '../metrics';
import type { WatcherSink } from './node-watcher';

type ReportMetrics = Pick<EngineMetrics, 'eventStreamFallbacks' | 'skippedTicks' | 'inspectErrors'>;

export function watcherReports(
  metrics: () => ReportMetrics | undefined,
  log: LogFn,
): Pick<WatcherSink, 'modeChanged' | 'skippedTick' | 'inspectFailed'> {
  return {
    modeChanged: (node, mode, reason) => {
      if (mode === 'polling')
        metrics()?.eventStreamFallbacks.inc({ node, reason: reason.split(':')[0] ?? reason });
      log(`${node}: ${mode === 'events' ? 'using GetContainerEvents' : 'polling'} (${reason})`);
    },
    skippedTick: (node) => metrics()?.skippedTicks.inc({ node }),
    inspectFailed: (node, id, error) => {
      metrics()?.inspectErrors.inc({ node });
      // NOT_FOUND: it was removed between the list and the inspection, an everyday race on a busy
      // node (the next relist records it gone). Anything else is worth a line.
      if ((error as { notFound?: unknown }).notFound === true) return;
      log(`${node}: inspecting ${id} failed, keeping the old record: ${error.message}`, 'warn');
    },
  };
}
