/**
 * Relist loops in a worker thread against real simulated CRI nodes (gRPC on unix sockets): the
 * façade records what the workers derive with server-wide seqs and valid causes, replay equals
 * live, nodes() and /metrics show the workers' relists, a disconnected node says nothing more,
 * and a worker that dies is restarted with its nodes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import { Churner, NodePopulation } from '@/bench/lib/population';
import { startSimNode, type SimNode } from '@/server/sim';
import { criRuntime } from '../relist/cri-runtime';
import { Engine } from '../engine';
import { memoryStore } from '../testing/memory-runtime';
import { DEFAULT_ENGINE_TIMINGS } from '../timings';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function setup(
  relistWorkers: NonNullable<ConstructorParameters<typeof Engine>[0]['relistWorkers']> = {
    count: 1,
  },
) {
  const dir = mkdtempSync(join(tmpdir(), 'psw-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const nodes: SimNode[] = [];
  const populations: NodePopulation[] = [];
  for (const name of ['w-1', 'w-2']) {
    const node = await startSimNode({
      name,
      socketPath: join(dir, `${name}.sock`),
      eventsMode: 'unimplemented',
    });
    cleanups.push(() => node.stop());
    const p = new NodePopulation(node.runtime, name);
    p.populate(4, 2);
    nodes.push(node);
    populations.push(p);
  }
  const store = memoryStore();
  const logs: string[] = [];
  const engine = new Engine({
    store,
    timings: { ...DEFAULT_ENGINE_TIMINGS, relistMs: 200 },
    dial: (endpoint) => criRuntime(endpoint),
    relistWorkers,
    log: (line) => logs.push(line),
  });
  cleanups.push(() => engine.stop());
  engine.start();
  for (const n of nodes) engine.watch(n.name, n.endpoint);
  const pods = (name: string) => Object.keys(engine.snapshot().nodes[name]?.pods ?? {}).length;
  await until('both nodes listed by the worker', () =>
    engine.nodes().every((n) => n.relists > 0 && pods(n.name) === 4),
  );
  return { engine, store, nodes, populations, logs };
}

describe('relist workers', () => {
  it('records what the worker derives: server-wide seqs, causes in the same batch, replay equals live', async () => {
    const { engine, store, populations } = await setup();
    const churner = new Churner(7);
    const before = store.events.length;
    for (const p of populations) churner.step(p, 3);
    await until('the churn recorded', () =>
      store.events
        .slice(before)
        .some((e) => e.kind === 'container' && e.type === 'ContainerStateChanged'),
    );
    const seqs = store.events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const bySeq = new Map(store.events.map((e) => [e.seq, e]));
    for (const e of store.events) {
      if (e.cause === undefined) continue;
      expect(e.cause).toBeLessThan(e.seq);
      expect(bySeq.get(e.cause)?.kind).toBe('cri');
      expect(bySeq.get(e.cause)?.node).toBe(e.node);
    }
    expect(reduceAll(emptyState(), store.events)).toEqual(engine.snapshot());
    const summary = engine.nodes();
    expect(summary.map((n) => n.connected)).toEqual([true, true]);
    expect(await engine.metrics()).toMatch(
      /podscope_relist_duration_seconds_count\{node="w-1"\} [1-9]/,
    );
    // Each worker's own heap, reported with its statuses every second.
    await until('a worker reported its heap', async () =>
      /podscope_relist_worker_heap_bytes\{worker="0"\} [1-9]\d{5,}/.test(await engine.metrics()),
    );
  });

  it('a disconnected node says nothing more; a worker that dies is restarted with its nodes', async () => {
    const { engine, store, populations, logs } = await setup();
    await engine.disconnect('w-1');
    const removedAt = store.events.findIndex((e) => e.kind === 'node' && e.type === 'NodeRemoved');
    expect(removedAt).toBeGreaterThan(0);
    const churner = new Churner(9);
    for (const p of populations) churner.step(p, 2);
    await until('w-2 churn recorded', () =>
      store.events.slice(removedAt).some((e) => e.node === 'w-2' && e.kind === 'container'),
    );
    expect(store.events.slice(removedAt + 1).filter((e) => e.node === 'w-1')).toEqual([]);

    // Kill the worker: the pool logs it, starts a new one and the node relists again.
    const pool = (
      engine as unknown as { pool: { workers: { thread: { terminate(): Promise<number> } }[] } }
    ).pool;
    const relists = engine.nodes()[0]?.relists ?? 0;
    await pool.workers[0]?.thread.terminate();
    await until('the worker restarted', () => logs.some((l) => /relist worker 0 exited/.test(l)));
    await until('w-2 relisting again', () => {
      const n = engine.nodes()[0];
      return n !== undefined && n.connected && n.relists > 0 && n.relists !== relists;
    });
    expect(reduceAll(emptyState(), store.events)).toEqual(engine.snapshot());
  });

  it('auto grows the pool with the nodes: each new node goes to the least loaded worker', async () => {
    const { engine } = await setup({ count: 'auto', fromNodes: 1, nodesPerWorker: 1 });
    const pool = (engine as unknown as { pool: { workers: { nodes: Map<string, unknown> }[] } })
      .pool;
    // One worker for the first node, a second once the second came (or the cores' floor).
    expect(pool.workers.length).toBe(Math.max(2, availableParallelism() - 1));
    const placed = pool.workers.map((w) => [...w.nodes.keys()]).filter((n) => n.length > 0);
    expect(placed.sort()).toEqual([['w-1'], ['w-2']]);
    expect(engine.nodes().every((n) => n.connected && n.relists > 0)).toBe(true);
  });
});
