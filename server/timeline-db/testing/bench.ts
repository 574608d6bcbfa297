/**
 * Store benchmarks, for `npm run bench` (which imports these) or directly:
 *   npx tsx server/timeline-db/testing/bench.ts            # both
 *   npx tsx server/timeline-db/testing/bench.ts append     # events/s
 *   npx tsx server/timeline-db/testing/bench.ts seek [dir] # stateAt p95 on a 1M-event timeline (kept in dir)
 *
 * Both work on a fresh database in a temporary directory and delete it afterwards. Times are
 * wall-clock on purpose: that is what is being measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UnsequencedEvent } from '@/lib/timeline';
import { createRandom } from '@/lib/random';
import { openStore, type TimelineStore } from '../store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';

export interface AppendBenchOptions {
  /** Events per run (default 100,000). */
  events?: number;
  /** Runs, each on a fresh database (default 5). */
  runs?: number;
  seed?: number;
}

export interface AppendBenchResult {
  /** Median events per second over the runs. */
  median: number;
  runs: number[];
  /** Events per second of this process's CPU time (robust to a busy machine). */
  cpuMedian: number;
  events: number;
  batches: number;
  /** Mean encoded event size in bytes. */
  meanEventBytes: number;
}

export interface SeekBenchOptions {
  /** Events in the generated timeline (default 1,000,000). */
  events?: number;
  /** Random moments per run (default 200). */
  samples?: number;
  /** Sampling runs over the same timeline (default 5). */
  runs?: number;
  checkpointEvery?: number;
  seed?: number;
  /**
   * Keep the generated timeline in this directory and reuse it when it is already there (the
   * build takes about a minute); default: a temporary directory, deleted afterwards.
   */
  dir?: string;
}

export interface SeekBenchResult {
  /** Median over runs of each run's p95, in ms. */
  p95Ms: number;
  /** Median over runs of each run's median, in ms. */
  p50Ms: number;
  maxMs: number;
  runsP95Ms: number[];
  /**
   * Median over runs of the p95 of CPU time this process spent per seek: close to the wall time
   * on an idle machine, and still meaningful on a busy one.
   */
  cpuP95Ms: number;
  events: number;
  /** Time to build the timeline (generate + append), in ms. */
  buildMs: number;
  fileBytes: number;
}

const median = (xs: readonly number[]): number => quantile(xs, 0.5);

function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

function withTempStore<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-bench-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sustained append throughput with realistic relist-sized batches (50–300 events). */
export function benchStoreEventsPerSecond(options: AppendBenchOptions = {}): AppendBenchResult {
  const events = options.events ?? 100_000;
  const runs = options.runs ?? 5;
  // Generated up front so the timing covers the store only.
  const batches: UnsequencedEvent[][] = [
    ...new SyntheticWorkload({ seed: options.seed ?? 7 }).batches(events),
  ];
  const total = batches.reduce((n, b) => n + b.length, 0);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    withTempStore((dir) => {
      const store = openStore({ path: dir });
      try {
        const start = performance.now();
        const cpuStart = process.cpuUsage();
        for (const b of batches) store.append(b);
        const seconds = (performance.now() - start) / 1000;
        const cpu = process.cpuUsage(cpuStart);
        rates.push(total / seconds);
        cpuRates.push(total / ((cpu.user + cpu.system) / 1e6));
        if (run === 0) bytes = store.stats().usedBytes;
      } finally {
        store.close();
      }
    });
  }
  return {
    median: Math.round(median(rates)),
    runs: rates.map(Math.round),
    cpuMedian: Math.round(median(cpuRates)),
    events: total,
    batches: batches.length,
    meanEventBytes: Math.round(bytes / total),
  };
}

function buildTimeline(store: TimelineStore, events: number, seed: number): void {
  const workload = new SyntheticWorkload({ seed, nodes: 20, podsPerNode: 15 });
  for (const b of workload.batches(events)) store.append(b);
}

/** stateAt at random moments of a generated timeline: nearest checkpoint + fold. */
export function benchSeek(options: SeekBenchOptions = {}): SeekBenchResult {
  const events = options.events ?? 1_000_000;
  const samples = options.samples ?? 200;
  const runs = options.runs ?? 5;
  const run = (dir: string): SeekBenchResult => {
    const store = openStore({
      path: dir,
      ...(options.checkpointEvery === undefined
        ? {}
        : { checkpointEvery: options.checkpointEvery }),
    });
    try {
      const buildStart = performance.now();
      if (store.latestSeq() === 0) buildTimeline(store, events, options.seed ?? 11);
      const buildMs = performance.now() - buildStart;
      const { oldestT = 0, latestT } = store.bounds();
      const random = createRandom('seek').next;
      const p95s: number[] = [];
      const p50s: number[] = [];
      const cpuP95s: number[] = [];
      let max = 0;
      for (let run = 0; run < runs; run++) {
        const times: number[] = [];
        const cpuTimes: number[] = [];
        for (let i = 0; i < samples; i++) {
          const t = oldestT + random() * (latestT - oldestT);
          const start = performance.now();
          const cpuStart = process.cpuUsage();
          store.stateAt(t);
          const cpu = process.cpuUsage(cpuStart);
          times.push(performance.now() - start);
          cpuTimes.push((cpu.user + cpu.system) / 1000);
        }
        p95s.push(quantile(times, 0.95));
        cpuP95s.push(quantile(cpuTimes, 0.95));
        p50s.push(median(times));
        max = Math.max(max, ...times);
      }
      return {
        p95Ms: round2(median(p95s)),
        p50Ms: round2(median(p50s)),
        maxMs: round2(max),
        runsP95Ms: p95s.map(round2),
        cpuP95Ms: round2(median(cpuP95s)),
        events: store.count(),
        buildMs: Math.round(buildMs),
        fileBytes: store.stats().fileBytes,
      };
    } finally {
      store.close();
    }
  };
  return options.dir === undefined ? withTempStore(run) : run(options.dir);
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const which = process.argv[2] ?? 'all';
  if (which === 'all' || which === 'append') {
    process.stdout.write(`append: ${JSON.stringify(benchStoreEventsPerSecond())}\n`);
  }
  if (which === 'all' || which === 'seek') {
    const dir = process.argv[3];
    process.stdout.write(`seek: ${JSON.stringify(benchSeek(dir === undefined ? {} : { dir }))}\n`);
  }
}
