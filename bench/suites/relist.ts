/**
 * relist_cpu_ms_per_node, relist_cpu_ms_per_node_churn, relist_wire_floor_ratio.
 *
 * One simulated node (110 pods / 330 containers) in the simulator process; in this process the
 * real engine (NodeWatcher → Engine → SQLite store) dialling it over gRPC. Each relist is timed
 * in CPU (user + system) of this process, so the figure is the engine's cost, not the waiting.
 * The floor is the same two list calls with the responses kept as raw bytes: what a relist
 * cannot go below with grpc-js on this machine.
 *
 * Repetitions: `reps` blocks of `perRep` relists; each block gives a mean; the median of the
 * blocks is reported. Both paths are warmed first (20 quiet, 100 churn relists, untimed). Floor
 * and engine blocks alternate, so drifting machine load hits both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CriClient } from '@/server/cri/client';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import type { NodeWatcher } from '@/server/engine/relist/node-watcher';
import { openStore, type TimelineStore } from '@/server/timeline-db';
import { SimProcess } from '../lib/sim-process';
import { startProfile, summarize, type FlameLine } from '../lib/profile';
import { cpuMs, median, round } from '../lib/stats';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';

export interface RelistOptions {
  pods?: number;
  containers?: number;
  reps?: number;
  perRep?: number;
  /** Share of containers changed before each churn relist (default 5 %). */
  churn?: number;
  /** Write a CPU profile of the quiet and churn blocks here (and summarize it in details). */
  profilePath?: string;
}

export interface RelistResult {
  relist_cpu_ms_per_node: number;
  relist_cpu_ms_per_node_churn: number;
  relist_wire_floor_ratio: number;
  details: {
    floor_cpu_ms: number;
    reps: number;
    per_rep: number;
    pods: number;
    containers: number;
    churned_per_relist: number;
    list_bytes: { sandboxes: number; containers: number };
    blocks: { floor: number[]; quiet: number[]; churn: number[] };
    events_per_churn_relist: number;
    /** With a profile: the functions with the most self time in the quiet and the churn blocks. */
    flame?: { quiet: FlameLine[]; churn: FlameLine[] };
  };
}

const TIMINGS = DEFAULT_ENGINE_TIMINGS;

export async function benchRelist(options: RelistOptions = {}): Promise<RelistResult> {
  const pods = options.pods ?? 110;
  const containers = options.containers ?? 3;
  const reps = options.reps ?? 7;
  const perRep = options.perRep ?? 40;
  const churnCount = Math.round((options.churn ?? 0.05) * pods * containers);
  const sim = await SimProcess.start();
  const dir = mkdtempSync(join(tmpdir(), 'podscope-bench-relist-'));
  let store: TimelineStore | undefined;
  let engine: Engine | undefined;
  let floorClient: CriClient | undefined;
  try {
    const [node] = await sim.grow(1, { pods, containers, eventsMode: 'unimplemented' });
    if (!node) throw new Error('simulator started no node');
    floorClient = new CriClient(node.endpoint);
    const s = openStore({ path: dir });
    store = s;
    const e = new Engine({
      store: engineStore(s),
      timings: TIMINGS,
      dial: (endpoint) => criRuntime(endpoint),
      log: () => undefined,
    });
    engine = e;
    const watcher: NodeWatcher = e.addNode(node.name, node.endpoint, false, false);
    await watcher.once();

    const fc = floorClient;
    const floorOnce = async () => {
      await Promise.all([fc.listPodSandboxRaw(), fc.listContainersRaw()]);
    };
    const [sbBytes, ctBytes] = await Promise.all([fc.listPodSandboxRaw(), fc.listContainersRaw()]);
    // Warm both paths (JIT, connection, caches) before timing.
    for (let i = 0; i < 20; i++) {
      await floorOnce();
      await watcher.relist();
    }

    const timeBlock = async (
      fn: () => Promise<void>,
      before?: () => Promise<unknown>,
    ): Promise<number> => {
      let total = 0;
      for (let i = 0; i < perRep; i++) {
        if (before) await before();
        const c0 = cpuMs();
        await fn();
        total += cpuMs() - c0;
      }
      return total / perRep;
    };

    const floor: number[] = [];
    const quiet: number[] = [];
    const churn: number[] = [];
    const seqBefore = e.snapshot().seq;
    let stopProfile = options.profilePath ? await startProfile() : undefined;
    for (let r = 0; r < reps; r++) {
      floor.push(await timeBlock(floorOnce));
      quiet.push(await timeBlock(() => watcher.relist()));
    }
    const seqQuiet = e.snapshot().seq;
    let flameQuiet: FlameLine[] | undefined;
    if (stopProfile && options.profilePath) {
      const profile = await stopProfile();
      writeFileSync(
        options.profilePath.replace(/\.cpuprofile$/, '-quiet.cpuprofile'),
        JSON.stringify(profile),
      );
      flameQuiet = summarize(profile);
    }
    if (seqQuiet !== seqBefore)
      throw new Error(`quiet relists recorded ${seqQuiet - seqBefore} events`);
    // Warm the churn path too (JIT of derivation, events, store writes), as the quiet one was
    // warmed above: without it the first ~100 churn relists cost up to 2× the later ones, and a
    // --quick run (45 timed) measured little else.
    const churnOnce = () => sim.churn(churnCount, [node.name]);
    for (let i = 0; i < 100; i++) {
      await churnOnce();
      await watcher.relist();
    }
    const seqChurn = e.snapshot().seq;
    if (flameQuiet) stopProfile = await startProfile();
    for (let r = 0; r < reps; r++) {
      churn.push(await timeBlock(() => watcher.relist(), churnOnce));
    }
    const events = e.snapshot().seq - seqChurn;
    let flame: { quiet: FlameLine[]; churn: FlameLine[] } | undefined;
    if (stopProfile && options.profilePath && flameQuiet) {
      const profile = await stopProfile();
      writeFileSync(
        options.profilePath.replace(/\.cpuprofile$/, '-churn.cpuprofile'),
        JSON.stringify(profile),
      );
      flame = { quiet: flameQuiet, churn: summarize(profile) };
    }
    if (watcher.lastError) throw new Error(`relist failed: ${watcher.lastError}`);

    const floorMs = median(floor);
    const quietMs = median(quiet);
    return {
      relist_cpu_ms_per_node: round(quietMs, 3),
      relist_cpu_ms_per_node_churn: round(median(churn), 3),
      relist_wire_floor_ratio: round(quietMs / floorMs, 2),
      details: {
        floor_cpu_ms: round(floorMs, 3),
        reps,
        per_rep: perRep,
        pods,
        containers: pods * containers,
        churned_per_relist: churnCount,
        list_bytes: { sandboxes: sbBytes.length, containers: ctBytes.length },
        blocks: {
          floor: floor.map((x) => round(x, 3)),
          quiet: quiet.map((x) => round(x, 3)),
          churn: churn.map((x) => round(x, 3)),
        },
        events_per_churn_relist: round(events / (reps * perRep), 1),
        ...(flame ? { flame } : {}),
      },
    };
  } finally {
    floorClient?.close();
    await engine?.stop();
    store?.close();
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
  }
}
