/**
 * Engine unit tests over an in-memory runtime and an in-memory store (no sockets, no SQLite):
 * what a relist costs when nothing changes, and time-driven re-derivation.
 */
import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { Engine } from './engine';
import type { HintProvider } from './hints';
import { memoryRuntime, memoryStore } from './testing/memory-runtime';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

function rig(opts: { networkReady?: boolean } = {}) {
  let now = 2_500;
  const client = memoryRuntime(opts.networkReady);
  // Counts derivations: the engine asks every provider for hints once per pod it derives.
  const derived: string[] = [];
  const provider: HintProvider = {
    name: 'driver',
    hintsFor: (uid) => {
      derived.push(uid);
      return undefined;
    },
  };
  const store = memoryStore();
  const engine = new Engine({
    store,
    timings: DEFAULT_ENGINE_TIMINGS,
    clock: { now: () => now },
    providers: [provider],
    dial: () => client,
    log: () => undefined,
  });
  const watcher = engine.addNode('n1', 'mem', false, false);
  return {
    engine,
    store,
    watcher,
    derived,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('Engine', () => {
  it('a quiet relist derives nothing and records nothing', async () => {
    const r = rig();
    await r.watcher.once();
    // The engine derives what a relist touched once more on the next one (follow-up).
    await r.watcher.relist();
    const seq = r.engine.snapshot().seq;
    r.derived.length = 0;
    await r.watcher.relist();
    await r.watcher.relist();
    expect(r.derived).toEqual([]);
    expect(r.engine.snapshot().seq).toBe(seq);
  });

  it('re-derives a pod once when its eviction falls due, not on every relist after', async () => {
    // The runtime's network is not ready: the node is NotReady and its pods are due for eviction
    // after the default toleration, a deadline that then stays in the past.
    const r = rig({ networkReady: false });
    await r.watcher.once();
    await r.watcher.relist();
    const due = r.engine.snapshot().nodes.n1?.pods.u1?.evictionDueAt;
    expect(due).toBeGreaterThan(2_500);

    r.derived.length = 0;
    r.advance((due ?? 0) - 2_500 + 1);
    await r.watcher.relist();
    // Once for the deadline; perhaps once more in the same relist for the node's Ready moving on
    // (300 s without a Status: the kubelet's first reason becomes "container runtime is down",
    // which the pod's Ready why names).
    expect(r.derived.length).toBeGreaterThanOrEqual(1);
    expect(r.derived.length).toBeLessThanOrEqual(2);
    expect(new Set(r.derived)).toEqual(new Set(['u1']));
    // The node's conditions move on with the deadline (the next relist may re-derive for that);
    // after that, the past deadline alone derives nothing, relist after relist, tick after tick.
    await r.watcher.relist();
    const settled = r.derived.length;
    for (let i = 0; i < 5; i++) {
      r.advance(1_000);
      await r.watcher.relist();
      r.engine.tick();
    }
    expect(r.derived.length).toBe(settled);
  });

  it('keeps the committed state equal to the fold of what the store holds', async () => {
    const r = rig();
    await r.watcher.once();
    r.advance(60_000);
    await r.watcher.relist();
    r.engine.tick();
    expect(r.engine.snapshot()).toEqual(reduceAll(emptyState(), r.store.events));
  });

  it('serves its podscope_* series and the process default metrics in one exposition', async () => {
    const r = rig();
    await r.watcher.once();
    const text = await r.engine.metrics();
    for (const name of [
      'podscope_relist_duration_seconds',
      'podscope_relist_errors_total',
      'podscope_relist_skipped_ticks_total',
      'podscope_inspect_errors_total',
      'podscope_events_emitted_total',
      'podscope_events_dropped_total',
      'podscope_event_stream_fallbacks_total',
      'podscope_node_clock_offset_seconds',
      'podscope_subscribers',
      'podscope_pods',
      'podscope_node_ready',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).toMatch(/^podscope_pods\{node="n1",phase="Running"\} 1$/m);
    expect(text).toMatch(/^podscope_events_emitted_total\{kind="pod"\} [1-9]/m);
    expect(text).toMatch(/^podscope_relist_duration_seconds_count\{node="n1"\} 1$/m);
    // A second engine in the same process has series of its own.
    expect(await rig().engine.metrics()).not.toMatch(
      /podscope_pods\{node="n1",phase="Running"\} 1/,
    );
  });
});
