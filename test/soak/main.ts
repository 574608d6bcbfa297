/**
 * `npm run soak`: Podscope for a long while under a busy, churning cluster.
 *
 * - The load: N simulated nodes with a driver each, churning pods (load.ts), in its own process.
 * - The server under test: the real console server (scripts/server.mjs on a private copy of the
 *   build, configured with the N endpoints like any cluster), in its own process.
 * - A subscriber holding cluster.watch for the whole run (subscriber.ts).
 *
 * Passes when, after warm-up, the server's heap grows by less than 10 % (the main thread's, and
 * its relist workers' together when it runs any), the subscriber received every seq exactly once
 * and in order, and the server printed no error. Prints a summary and writes
 * test-results/soak.json.
 *
 *   npm run soak -- [--minutes 30] [--nodes 100] [--warmup-minutes 5] [--sample-seconds 10]
 *                   [--out test-results/soak.json] [--seed soak]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildWarning, freePort, ROOT, snapshotBuild } from '@/bench/lib/server';
import { heapGrowth, isErrorLine, sumByName, type HeapSample } from './analysis';
import { WIRE_VERSION } from '@/lib/timeline/wire';
import { Subscriber } from './subscriber';

interface Sample extends HeapSample {
  /** The relist workers' heaps together (each thread has its own; heapBytes is the main thread's). */
  workerHeapBytes: number;
  rssBytes: number;
  seq: number;
  subscriberSeq: number;
  healthy: boolean;
  staleNodes: number;
  events: number;
  relistErrors: number;
  skippedTicks: number;
  dropped: number;
  fallbacks: number;
}

const MAX_HEAP_GROWTH_PCT = 10;

const log = (line: string) => process.stdout.write(`[soak] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;

function lines(
  child: ChildProcess,
  onLine: (line: string, stream: 'stdout' | 'stderr') => void,
): void {
  if (child.stdout) createInterface({ input: child.stdout }).on('line', (l) => onLine(l, 'stdout'));
  if (child.stderr) createInterface({ input: child.stderr }).on('line', (l) => onLine(l, 'stderr'));
}

async function stopChild(child: ChildProcess, ms = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

/** A private copy of the built console; another `next build` running (others' tests) is waited out. */
async function buildWithRetries(attempts = 15): Promise<string> {
  for (let i = 1; ; i++) {
    try {
      return snapshotBuild();
    } catch (err) {
      if (i >= attempts) throw err;
      log(
        `build not available yet (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); retrying in 20 s`,
      );
      await sleep(20_000);
    }
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '30' },
      nodes: { type: 'string', default: '100' },
      'warmup-minutes': { type: 'string' },
      'sample-seconds': { type: 'string', default: '10' },
      out: { type: 'string', default: 'test-results/soak.json' },
      seed: { type: 'string', default: 'soak' },
    },
  });
  const minutes = Number(values.minutes);
  const nodeCount = Number(values.nodes);
  const warmupMinutes = Number(values['warmup-minutes'] ?? Math.min(5, minutes / 3));
  const sampleMs = Number(values['sample-seconds']) * 1000;
  if (
    !(minutes > 0) ||
    !Number.isInteger(nodeCount) ||
    nodeCount < 1 ||
    !(warmupMinutes >= 0) ||
    warmupMinutes >= minutes ||
    !(sampleMs >= 1000)
  ) {
    process.stderr.write(
      'soak: --minutes > 0, --nodes ≥ 1, 0 ≤ --warmup-minutes < --minutes, --sample-seconds ≥ 1\n',
    );
    return 2;
  }
  const out = resolve(ROOT, values.out);
  const started = Date.now();
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()?.();
  };
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    log(
      `${minutes} min, ${nodeCount} simulated nodes, warm-up ${warmupMinutes} min, sample every ${sampleMs / 1000} s`,
    );
    const appDir = await buildWithRetries();
    cleanups.push(() => rmSync(appDir, { recursive: true, force: true }));
    if (buildWarning)
      log(`WARNING: serving the previous build (${buildWarning.split('\n')[0] ?? ''})`);

    // 1. The load.
    const socketDir = mkdtempSync(join(tmpdir(), 'podscope-soak-sim-'));
    cleanups.push(() => rmSync(socketDir, { recursive: true, force: true }));
    const load = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/soak/load.ts', String(nodeCount), socketDir, values.seed],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => stopChild(load));
    const loadLog: string[] = [];
    let loadStats: Record<string, number> = {};
    const ready = new Promise<{ name: string; endpoint: string }[]>((resolveReady, reject) => {
      load.once('exit', (code) =>
        reject(
          new Error(
            `the load process exited (${code}) before it was ready:\n${loadLog.slice(-20).join('\n')}`,
          ),
        ),
      );
      lines(load, (line, stream) => {
        if (stream === 'stderr') {
          loadLog.push(line);
          return;
        }
        const msg = JSON.parse(line) as {
          ready?: boolean;
          nodes?: { name: string; endpoint: string }[];
          stats?: Record<string, number>;
        };
        if (msg.ready && msg.nodes) resolveReady(msg.nodes);
        if (msg.stats) loadStats = msg.stats;
      });
    });
    const nodes = await ready;
    log(`load ready: ${nodes.length} nodes in ${socketDir}`);

    // 2. The server under test.
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'podscope-soak-data-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = spawn(
      process.execPath,
      [join(ROOT, 'scripts/server.mjs'), '-H', '127.0.0.1', '-p', String(port)],
      {
        cwd: appDir,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          NEXT_TELEMETRY_DISABLED: '1',
          PODSCOPE_PORT: String(port),
          PODSCOPE_DATA_DIR: dataDir,
          PODSCOPE_CRI: nodes.map((n) => `${n.name}=${n.endpoint}`).join(','),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => stopChild(server));
    const serverLog: string[] = [];
    const serverErrors: string[] = [];
    lines(server, (line) => {
      serverLog.push(line);
      if (serverLog.length > 2_000) serverLog.splice(0, 1_000);
      if (isErrorLine(line)) serverErrors.push(line);
    });
    const url = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 120_000; ;) {
      if (server.exitCode !== null)
        throw new Error(
          `the server exited (${server.exitCode}):\n${serverLog.slice(-30).join('\n')}`,
        );
      const ok = await fetch(`${url}/api/healthz`).then(
        (r) => r.status === 200 || r.status === 503,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline)
        throw new Error(
          `the server did not answer within 120 s:\n${serverLog.slice(-30).join('\n')}`,
        );
      await sleep(500);
    }
    log(`server up at ${url} (pid ${server.pid ?? '?'})`);

    // 3. The subscriber, then sampling until the end.
    // The lean wire, as the console asks for it.
    const subscriber = new Subscriber(
      `${url}/api/trpc/cluster.watch?input=${encodeURIComponent(JSON.stringify({ wire: WIRE_VERSION }))}`,
    );
    subscriber.start();
    cleanups.push(() => subscriber.stop());
    const t0 = Date.now();
    const endAt = t0 + minutes * 60_000;
    const samples: Sample[] = [];
    let lastReport = 0;
    while (Date.now() < endAt) {
      if (server.exitCode !== null)
        throw new Error(
          `the server exited (${String(server.exitCode)}) during the run:\n${serverLog.slice(-30).join('\n')}`,
        );
      try {
        const [metricsText, health] = await Promise.all([
          fetch(`${url}/metrics`).then((r) => r.text()),
          fetch(`${url}/api/healthz`).then(
            (r) =>
              r.json() as Promise<{
                ok: boolean;
                seq: number;
                nodes: Record<string, number | null>;
              }>,
          ),
        ]);
        const m = sumByName(metricsText);
        const sample: Sample = {
          t: Date.now() - t0,
          heapBytes: m.get('nodejs_heap_size_used_bytes') ?? 0,
          workerHeapBytes: m.get('podscope_relist_worker_heap_bytes') ?? 0,
          rssBytes: m.get('process_resident_memory_bytes') ?? 0,
          seq: health.seq,
          subscriberSeq: subscriber.report.lastSeq,
          healthy: health.ok,
          staleNodes: Object.values(health.nodes).filter((v) => v === null || v > 10_000).length,
          events: m.get('podscope_events_emitted_total') ?? 0,
          relistErrors: m.get('podscope_relist_errors_total') ?? 0,
          skippedTicks: m.get('podscope_relist_skipped_ticks_total') ?? 0,
          dropped: m.get('podscope_events_dropped_total') ?? 0,
          fallbacks: m.get('podscope_event_stream_fallbacks_total') ?? 0,
        };
        samples.push(sample);
        if (sample.t - lastReport >= 60_000 || samples.length === 1) {
          lastReport = sample.t;
          log(
            `${(sample.t / 60_000).toFixed(1)} min: seq ${sample.seq} (subscriber ${sample.subscriberSeq}), heap ${mib(sample.heapBytes)} (workers ${mib(sample.workerHeapBytes)}), rss ${mib(sample.rssBytes)}, ` +
              `stale nodes ${sample.staleNodes}, relist errors ${sample.relistErrors}, server errors ${serverErrors.length}, load pods ${loadStats.pods ?? '?'}`,
          );
        }
      } catch (err) {
        serverErrors.push(
          `soak: sampling failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      await sleep(Math.min(sampleMs, Math.max(0, endAt - Date.now())));
    }

    // 4. The end: the subscriber must catch up with the last seq the server reports.
    const finalHealth = (await fetch(`${url}/api/healthz`).then((r) => r.json())) as {
      seq: number;
    };
    const caughtUp = await subscriber.caughtUp(finalHealth.seq, 60_000);
    await subscriber.stop();
    await stopChild(server);
    await stopChild(load);

    const sub = subscriber.report;
    const growth = heapGrowth(samples, warmupMinutes * 60_000);
    // The relist workers' heaps, judged by the same rule when the server runs any.
    const workers = samples.some((s) => s.workerHeapBytes > 0)
      ? heapGrowth(
          samples.map((s) => ({ t: s.t, heapBytes: s.workerHeapBytes })),
          warmupMinutes * 60_000,
        )
      : undefined;
    const elapsedS = (Date.now() - t0) / 1000;
    const expectedEvents =
      sub.firstSnapshotSeq === undefined ? 0 : sub.lastSeq - sub.firstSnapshotSeq;
    const checks = {
      heapGrowthUnder10Pct: growth !== undefined && growth.growthPct < MAX_HEAP_GROWTH_PCT,
      workerHeapGrowthUnder10Pct: workers === undefined || workers.growthPct < MAX_HEAP_GROWTH_PCT,
      everySeqOnce:
        caughtUp &&
        sub.gaps.length === 0 &&
        sub.duplicates === 0 &&
        sub.resnapshots === 0 &&
        sub.events === expectedEvents,
      noServerErrors: serverErrors.length === 0,
    };
    const pass = Object.values(checks).every(Boolean);
    const last = samples[samples.length - 1];
    const result = {
      pass,
      checks,
      config: {
        minutes,
        nodes: nodeCount,
        warmupMinutes,
        sampleSeconds: sampleMs / 1000,
        seed: values.seed,
        server: 'scripts/server.mjs',
        build: buildWarning ? 'previous (current sources did not build)' : 'current',
      },
      startedAt: new Date(started).toISOString(),
      elapsedSeconds: Math.round(elapsedS),
      heap: growth && {
        baselineMiB: +(growth.baselineBytes / 1_048_576).toFixed(1),
        finalMiB: +(growth.finalBytes / 1_048_576).toFixed(1),
        growthPct: +growth.growthPct.toFixed(2),
        slopeMiBPerHour: +growth.slopeMibPerHour.toFixed(2),
        windows: growth.windows.map((w) => ({
          fromMin: +(w.fromMs / 60_000).toFixed(1),
          floorMiB: +(w.floorBytes / 1_048_576).toFixed(1),
        })),
      },
      workerHeap: workers && {
        baselineMiB: +(workers.baselineBytes / 1_048_576).toFixed(1),
        finalMiB: +(workers.finalBytes / 1_048_576).toFixed(1),
        growthPct: +workers.growthPct.toFixed(2),
        slopeMiBPerHour: +workers.slopeMibPerHour.toFixed(2),
      },
      rssMiB: last
        ? {
            final: +(last.rssBytes / 1_048_576).toFixed(1),
            max: +(Math.max(...samples.map((s) => s.rssBytes)) / 1_048_576).toFixed(1),
          }
        : undefined,
      timeline: {
        finalSeq: finalHealth.seq,
        eventsPerSecond: +(expectedEvents / elapsedS).toFixed(1),
      },
      subscriber: {
        ...sub,
        caughtUp,
        expectedEvents,
        gaps: sub.gaps.slice(0, 20),
        errors: sub.errors.slice(0, 20),
      },
      server: {
        errorLines: serverErrors.length,
        firstErrors: serverErrors.slice(0, 20),
        relistErrors: last?.relistErrors ?? 0,
        skippedTicks: last?.skippedTicks ?? 0,
        eventsDroppedForSlowSubscribers: last?.dropped ?? 0,
        eventStreamFallbacks: last?.fallbacks ?? 0,
        unhealthySamples: samples.filter((s) => !s.healthy).length,
      },
      load: { ...loadStats, stderrLines: loadLog.length, firstStderr: loadLog.slice(0, 10) },
      samples: samples.map((s) => ({
        t: Math.round(s.t / 1000),
        heapMiB: +(s.heapBytes / 1_048_576).toFixed(1),
        workerHeapMiB: +(s.workerHeapBytes / 1_048_576).toFixed(1),
        rssMiB: +(s.rssBytes / 1_048_576).toFixed(1),
        seq: s.seq,
        sub: s.subscriberSeq,
      })),
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

    log('──────── summary ────────');
    log(
      `ran ${(elapsedS / 60).toFixed(1)} min with ${nodeCount} nodes; ${expectedEvents} events (${result.timeline.eventsPerSecond}/s), final seq ${finalHealth.seq}`,
    );
    log(
      growth
        ? `heap floor ${mib(growth.baselineBytes)} → ${mib(growth.finalBytes)} after warm-up: ${growth.growthPct.toFixed(2)} % (limit ${MAX_HEAP_GROWTH_PCT} %), slope ${growth.slopeMibPerHour.toFixed(2)} MiB/h`
        : 'heap: too few samples after warm-up to judge',
    );
    if (workers)
      log(
        `relist workers' heaps together ${mib(workers.baselineBytes)} → ${mib(workers.finalBytes)} after warm-up: ${workers.growthPct.toFixed(2)} % (limit ${MAX_HEAP_GROWTH_PCT} %), slope ${workers.slopeMibPerHour.toFixed(2)} MiB/h`,
      );
    log(
      `subscriber: ${sub.events} events, gaps ${sub.gaps.length}, duplicates ${sub.duplicates}, re-snapshots ${sub.resnapshots}, reconnects ${sub.reconnects}, caught up ${caughtUp}`,
    );
    log(
      `server log: ${serverErrors.length} error line(s)${serverErrors[0] ? ` — first: ${serverErrors[0]}` : ''}`,
    );
    log(`${pass ? 'PASS' : 'FAIL'} — written to ${out}`);
    return pass ? 0 : 1;
  } catch (err) {
    log(`FAIL: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
