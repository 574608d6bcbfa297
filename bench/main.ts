/**
 * `npm run bench`: every benchmark, one after the other (they must not share the machine's two
 * cores with each other), then bench/results/latest.json and a table on stdout.
 *
 *   npm run bench                         # everything (~15–20 min)
 *   npm run bench -- --only relist,store  # some suites: relist, capacity, latency, scale, store, seek, agent, cluster
 *   npm run bench -- --quick              # shorter windows and fewer repetitions (a smoke run)
 *   npm run bench -- --profile            # also write CPU profiles next to the results
 *   npm run bench -- --out FILE           # write the JSON elsewhere
 *   npm run bench -- --only cluster --cluster-parts ingest   # the cluster suite's ingest part only
 *
 * The result keys are a stable contract (README "Benchmarks"); suites that were not run keep
 * the key with null. Every figure is a median of repetitions; `repetitions` says how many.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { buildWarning, ROOT, snapshotBuild } from './lib/server';
import { benchAgent } from './suites/agent';
import { benchCapacity } from './suites/capacity';
import { benchCluster } from './suites/cluster';
import { benchLatency } from './suites/latency';
import { benchRelist } from './suites/relist';
import { benchScale } from './suites/scale';
import { benchStoreAppend, benchStoreSeek } from './suites/store';

export const RESULT_KEYS = [
  'relist_cpu_ms_per_node',
  'relist_cpu_ms_per_node_churn',
  'relist_wire_floor_ratio',
  'nodes_held_1s',
  'event_to_dom_ms_p50',
  'event_to_dom_ms_p95',
  'event_to_dom_poll_ms_p50',
  'stream_bytes_per_transition',
  'snapshot_bytes_10k_pods',
  'ui_frame_ms_p95_10k_pods',
  'seek_ms_p95_1m_events',
  'store_events_per_s',
  'server_rss_mb_at_nodes_held',
  'agent_rss_mb',
  'agent_cpu_pct',
  'cluster_ingest_events_per_s',
  'cluster_nodes_held',
  'replica_failover_gap_ms',
] as const;
export type ResultKey = (typeof RESULT_KEYS)[number];

/** The project's targets (the brief): `max` ≤, `min` ≥. */
export const TARGETS: Partial<Record<ResultKey, { max?: number; min?: number }>> = {
  relist_wire_floor_ratio: { max: 3 },
  nodes_held_1s: { min: 300 },
  event_to_dom_ms_p50: { max: 100 },
  event_to_dom_poll_ms_p50: { max: 600 },
  stream_bytes_per_transition: { max: 300 },
  ui_frame_ms_p95_10k_pods: { max: 33 },
  seek_ms_p95_1m_events: { max: 100 },
  store_events_per_s: { min: 20_000 },
  agent_rss_mb: { max: 80 },
  agent_cpu_pct: { max: 3 },
  cluster_ingest_events_per_s: { min: 20_000 },
  cluster_nodes_held: { min: 5_000 },
};

const UNITS: Record<ResultKey, string> = {
  relist_cpu_ms_per_node: 'ms CPU',
  relist_cpu_ms_per_node_churn: 'ms CPU',
  relist_wire_floor_ratio: '×',
  nodes_held_1s: 'nodes',
  event_to_dom_ms_p50: 'ms',
  event_to_dom_ms_p95: 'ms',
  event_to_dom_poll_ms_p50: 'ms',
  stream_bytes_per_transition: 'B',
  snapshot_bytes_10k_pods: 'B',
  ui_frame_ms_p95_10k_pods: 'ms',
  seek_ms_p95_1m_events: 'ms',
  store_events_per_s: 'events/s',
  server_rss_mb_at_nodes_held: 'MiB',
  agent_rss_mb: 'MiB',
  agent_cpu_pct: '% of a core',
  cluster_ingest_events_per_s: 'events/s',
  cluster_nodes_held: 'nodes',
  replica_failover_gap_ms: 'ms',
};

const SUITES = [
  'store',
  'relist',
  'latency',
  'scale',
  'capacity',
  'seek',
  'agent',
  'cluster',
] as const;
type Suite = (typeof SUITES)[number];

interface Args {
  only: Set<Suite>;
  quick: boolean;
  profile: boolean;
  out: string;
  /** `--cluster-parts ingest`: the cluster suite measures ingest only (its other keys stay null). */
  clusterIngestOnly: boolean;
}

const USAGE = `npm run bench -- [--only SUITE,…] [--quick] [--profile] [--out FILE]
  --only     run these suites only (${SUITES.join(', ')})
  --quick    shorter windows, fewer repetitions
  --profile  also write CPU profiles of the server and of Chromium beside the results
  --out      where the results JSON goes (default bench/results/latest.json)
  --cluster-parts ingest
             the cluster suite's ingest part only (failover and nodes held stay null)`;

function parseArgs(argv: string[]): Args | 'help' {
  const args: Args = {
    only: new Set(SUITES),
    quick: false,
    profile: false,
    out: join(ROOT, 'bench/results/latest.json'),
    clusterIngestOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--quick') args.quick = true;
    else if (a === '--profile') args.profile = true;
    else if (a === '--cluster-parts') {
      const v = argv[++i];
      if (v !== 'ingest') throw new Error(`--cluster-parts takes "ingest" (got ${v ?? 'nothing'})`);
      args.clusterIngestOnly = true;
    } else if (a === '--only' || a === '--out') {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      if (a === '--out') args.out = v;
      else {
        const names = v.split(',').map((s) => s.trim());
        for (const n of names)
          if (!(SUITES as readonly string[]).includes(n))
            throw new Error(`unknown suite "${n}" (${SUITES.join(', ')})`);
        args.only = new Set(names as Suite[]);
      }
    } else throw new Error(`unknown argument "${a}"\n${USAGE}`);
  }
  return args;
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = Date.now();
  const results: Record<ResultKey, number | null> = Object.fromEntries(
    RESULT_KEYS.map((k) => [k, null]),
  ) as Record<ResultKey, number | null>;
  const details: Record<string, unknown> = {};
  const durations: Record<string, number> = {};
  const errors: Record<string, string> = {};
  const repetitions: Record<string, string> = {};
  const machine = {
    cores: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    free_memory_gb_at_start: Math.round((freemem() / 2 ** 30) * 10) / 10,
    load_average_at_start: loadavg().map((x) => Math.round(x * 100) / 100),
    load_average_at_end: [] as number[],
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
  log(
    `cores ${machine.cores}, load average ${machine.load_average_at_start.join(' ')}, node ${machine.node}`,
  );
  const quick = args.quick;
  const profileDir = dirname(args.out);
  // Profiles are written as the suites run, before the results: their folder must exist first.
  if (args.profile) mkdirSync(profileDir, { recursive: true });

  const run = async (suite: Suite, fn: () => Promise<object> | object) => {
    if (!args.only.has(suite)) return;
    log(`── ${suite}`);
    const t0 = Date.now();
    try {
      const r = await fn();
      for (const [k, v] of Object.entries(r)) {
        if (k === 'details') details[suite] = v;
        else if ((RESULT_KEYS as readonly string[]).includes(k))
          results[k as ResultKey] = typeof v === 'number' && Number.isFinite(v) ? v : null;
      }
    } catch (err) {
      errors[suite] = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`${suite} failed: ${errors[suite]}`);
    }
    durations[suite] = Math.round((Date.now() - t0) / 100) / 10;
    log(`   ${suite}: ${durations[suite]} s`);
  };

  let appDir: string | undefined;
  if (['latency', 'scale', 'capacity', 'cluster'].some((s) => args.only.has(s as Suite))) {
    log('building the console if its sources changed (next build), then copying the build …');
    appDir = snapshotBuild();
  }

  // The relist suite measures CPU in this process: first, before other suites grow its heap.
  const relistReps = quick ? 3 : 9;
  const perRep = quick ? 15 : 40;
  repetitions.relist = `median of ${relistReps} blocks of ${perRep} relists (mean per block); floor and quiet blocks alternate`;
  await run('relist', () =>
    benchRelist({
      reps: relistReps,
      perRep,
      ...(args.profile ? { profilePath: join(profileDir, 'relist.cpuprofile') } : {}),
    }),
  );

  const storeRuns = quick ? 2 : 5;
  repetitions.store_events_per_s = `median of ${storeRuns} runs of 100,000 events each`;
  await run('store', () => benchStoreAppend(storeRuns));

  const samples = quick ? 7 : 25;
  repetitions.event_to_dom = `${samples} changes per mode; p50/p95 over the samples`;
  await run('latency', () => benchLatency({ samples, log, appDir }));

  const uiReps = quick ? 2 : 5;
  repetitions.scale = `snapshot: one (deterministic size); stream: one ${quick ? 10 : 20} s window; ui: median of ${uiReps} pans' p95`;
  await run('scale', () =>
    benchScale({
      appDir,
      reps: uiReps,
      streamWindowS: quick ? 10 : 20,
      log,
      ...(args.profile ? { profilePath: join(profileDir, 'ui-pan.cpuprofile') } : {}),
    }),
  );

  repetitions.nodes_held_1s = quick
    ? 'search windows 10 s, confirmation 20 s'
    : 'search windows 20 s, confirmation 60 s; held = no skipped tick and every node relisted ≥ (window − 2) times';
  await run('capacity', () =>
    benchCapacity({
      log,
      appDir,
      ...(quick ? { searchWindowS: 10, confirmWindowS: 20, ladder: [50, 100, 200, 300, 400] } : {}),
      ...(args.profile ? { profileDir } : {}),
    }),
  );

  const seekRuns = quick ? 2 : 5;
  repetitions.seek_ms_p95_1m_events = `median over ${seekRuns} runs of each run's p95 (200 random moments per run)`;
  await run('seek', () => benchStoreSeek(seekRuns, quick ? 200_000 : 1_000_000));

  repetitions.agent = quick ? 'one 15 s window after 10 s' : 'one 60 s window after 20 s';
  await run('agent', () => benchAgent({ warmupS: quick ? 10 : 20, windowS: quick ? 15 : 60, log }));

  repetitions.cluster = args.clusterIngestOnly
    ? `ingest only: one ${quick ? 10 : 20} s flood`
    : quick
      ? 'ingest: one 10 s flood; nodes held: 15 s windows at 250, 500, 1,000 nodes; failover: one kill'
      : 'ingest: one 20 s flood; nodes held: 30 s windows along 1,000 … 10,000 nodes until one is not held; failover: one kill';
  await run('cluster', () =>
    benchCluster({
      log,
      appDir,
      ...(quick ? { ingestWindowS: 10, ladder: [250, 500, 1_000], windowS: 15 } : {}),
      ...(args.profile ? { profileDir } : {}),
      ...(args.clusterIngestOnly ? { ingestOnly: true } : {}),
    }),
  );

  machine.load_average_at_end = loadavg().map((x) => Math.round(x * 100) / 100);
  const targets = Object.fromEntries(
    Object.entries(TARGETS).map(([k, t]) => {
      const v = results[k as ResultKey];
      const met =
        v === null
          ? null
          : t.max !== undefined
            ? v <= t.max
            : t.min !== undefined
              ? v >= t.min
              : null;
      return [k, { ...t, met }];
    }),
  );
  const doc = {
    schema: 'podscope-bench/1',
    generated_at: new Date().toISOString(),
    quick,
    ...results,
    machine,
    repetitions,
    targets,
    durations_s: { ...durations, total: Math.round((Date.now() - started) / 1000) },
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
    ...(buildWarning
      ? { build_warning: `next build failed; the previous build was measured: ${buildWarning}` }
      : {}),
    details,
  };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(doc, null, 2)}\n`);
  if (appDir) rmSync(appDir, { recursive: true, force: true });
  printTable(results, targets);
  log(`wrote ${args.out} (${doc.durations_s.total} s)`);
  return Object.keys(errors).length > 0 ? 1 : 0;
}

function printTable(
  results: Record<ResultKey, number | null>,
  targets: Record<string, { max?: number; min?: number; met: boolean | null }>,
): void {
  const rows = RESULT_KEYS.map((k) => {
    const v = results[k];
    const t = targets[k];
    const target = t ? (t.max !== undefined ? `≤ ${t.max}` : `≥ ${t.min}`) : '';
    const status = !t || t.met === null ? '' : t.met ? 'met' : 'MISSED';
    return [k, v === null ? '—' : String(v), UNITS[k], target, status];
  });
  const widths = [0, 1, 2, 3, 4].map((i) =>
    Math.max(
      ...rows.map((r) => (r[i] ?? '').length),
      ['key', 'value', 'unit', 'target', ''][i]?.length ?? 0,
    ),
  );
  const line = (r: string[]) =>
    r.map((c, i) => (i === 1 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ');
  process.stdout.write(`${line(['key', 'value', 'unit', 'target', ''])}\n`);
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
}
