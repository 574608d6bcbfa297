/**
 * A relist worker: the per-node engines of some nodes (node-engine.ts, exactly what the engine
 * runs in-thread and what a cluster-mode agent runs), in a worker thread with its own heap and
 * garbage collector. The gRPC buffers of every relist live and die here; the main thread (the
 * recorder, the store, the streams) receives only the derived events.
 *
 * - Each engine's batches are gathered for `flushMs` and handed over as one report, so the
 *   recorder commits (and the streams send) many relists' events at once.
 * - Every `reportMs` the worker ticks its engines (grace periods, back-offs that end) and reports
 *   every node's status, the instrument calls since the last report, its heap in use and the log
 *   lines.
 * - Events about its nodes recorded elsewhere (drift) arrive as `observe` and are folded into
 *   the engines' views, numbered on the worker's own counter.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { LogLevel } from '@/server/log';
import { criRuntime } from '../relist/cri-runtime';
import { createNodeEngine, type NodeEngine, type NodeEngineOptions } from '../node/node-engine';
import type { FromWorker, MetricCall, NodeStatus, ToWorker, WorkerConfig } from './protocol';

const port = parentPort;
if (!port) throw new Error('relist-worker.ts runs as a worker thread (see pool.ts)');
const { config, index } = workerData as { config: WorkerConfig; index: number };

const engines = new Map<string, NodeEngine>();
let local = 0;
const seq = () => ++local;
let events: TimelineEvent[] = [];
let metrics: MetricCall[] = [];
let logs: [string, LogLevel?][] = [];
const touched = new Set<string>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;

const post = (m: FromWorker) => port.postMessage(m);

function status(e: NodeEngine): NodeStatus {
  const w = e.watcher;
  return {
    name: e.name,
    connected: w.connected,
    mode: w.mode,
    ...(w.lastRelistAt !== undefined ? { lastRelistAt: w.lastRelistAt } : {}),
    ...(w.lastError !== undefined ? { lastError: w.lastError } : {}),
    skipped: w.skipped,
    relists: w.relists,
  };
}

function report(all: boolean): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  const names = all ? [...engines.keys()] : [...touched];
  touched.clear();
  const statuses: NodeStatus[] = [];
  for (const n of names) {
    const e = engines.get(n);
    if (e) statuses.push(status(e));
  }
  if (!all && events.length === 0) return;
  post({ type: 'report', events, statuses, metrics, logs });
  events = [];
  metrics = [];
  logs = [];
}

/** The instruments a node engine uses, recording each call for the main thread to replay. */
function instrument(metric: MetricCall[0]) {
  return {
    inc: (labels: Record<string, string>, value?: number) =>
      metrics.push([metric, 'inc', labels, ...(value !== undefined ? [value] : [])] as MetricCall),
    observe: (labels: Record<string, string>, value: number) =>
      metrics.push([metric, 'observe', labels, value]),
    set: (labels: Record<string, string>, value: number) =>
      metrics.push([metric, 'set', labels, value]),
  };
}
const shim = {
  relistDuration: instrument('relistDuration'),
  relistErrors: instrument('relistErrors'),
  skippedTicks: instrument('skippedTicks'),
  inspectErrors: instrument('inspectErrors'),
  eventStreamFallbacks: instrument('eventStreamFallbacks'),
  clockOffset: instrument('clockOffset'),
} as unknown as NodeEngineOptions['metrics'];

function add(spec: Extract<ToWorker, { op: 'add' }>['node']): void {
  if (engines.has(spec.name)) return;
  const engine = createNodeEngine({
    name: spec.name,
    client: criRuntime(spec.endpoint, {
      ...(config.criTimeoutMs !== undefined ? { timeoutMs: config.criTimeoutMs } : {}),
    }),
    timings: config.timings,
    onEvents: (batch) => {
      for (const e of batch) events.push(e);
      touched.add(spec.name);
      flushTimer ??= setTimeout(() => report(false), config.flushMs);
    },
    ...(config.gates ? { gates: config.gates } : {}),
    ...(spec.kubeletVersion !== undefined ? { kubeletVersion: spec.kubeletVersion } : {}),
    lab: spec.lab,
    ...(spec.initial ? { initial: spec.initial } : {}),
    seq,
    startedAt: spec.startedAt,
    ...(shim ? { metrics: shim } : {}),
    nodeIPs: spec.nodeIPs,
    detectedIPs: spec.detectedIPs,
    ...(spec.maxContainerRestartPeriodMs !== undefined
      ? { maxContainerRestartPeriodMs: spec.maxContainerRestartPeriodMs }
      : {}),
    log: (line, level) => logs.push(level ? [line, level] : [line]),
  });
  engines.set(spec.name, engine);
  engine.start();
}

const housekeeping = setInterval(() => {
  const now = Date.now();
  for (const e of engines.values()) e.tick(now);
  // This thread's own heap (v8 answers for the calling isolate): /metrics shows each worker's.
  metrics.push([
    'workerHeap',
    'set',
    { worker: String(index) },
    getHeapStatistics().used_heap_size,
  ]);
  report(true);
}, config.reportMs);

port.on('message', (m: ToWorker) => {
  switch (m.op) {
    case 'add':
      add(m.node);
      break;
    case 'remove': {
      const e = engines.get(m.name);
      e?.stop();
      engines.delete(m.name);
      break;
    }
    case 'observe': {
      const byNode = new Map<string, TimelineEvent[]>();
      for (const e of m.events) {
        if (!engines.has(e.node)) continue;
        const list = byNode.get(e.node) ?? [];
        list.push({ ...e, seq: seq() });
        byNode.set(e.node, list);
      }
      for (const [name, list] of byNode) engines.get(name)?.observe(list);
      break;
    }
    case 'adopt':
      engines.get(m.name)?.adopt(m.view);
      break;
    case 'stop':
      clearInterval(housekeeping);
      for (const e of engines.values()) e.stop();
      engines.clear();
      report(true);
      post({ type: 'stopped' });
      port.close();
      break;
  }
});

post({ type: 'ready' });
