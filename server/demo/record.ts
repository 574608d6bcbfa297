/**
 * recordDemo: the browser demo's timeline (`?source=demo`), recorded from the same parts as
 * `npm start` — three simulated nodes, a kubelet stand-in on each running the built-in demo
 * workload (server/demo/workload.ts) with the demo's sped-up back-off, and the engine observing
 * them — on a manual clock moved by the learn pump (server/learn/pump.ts). So the demo shows
 * what the kubelet's rules derive from a real (simulated) runtime; there is no second model.
 *
 * Deterministic: the simulators, the drivers' uids and the workload are seeded, the clock starts
 * at a fixed time and moves only between runtime calls. Times are virtual.
 */
import { KUBELET_DEFAULTS } from '@/lib/kubelet/timings';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { DEMO_BACKOFF_SCALE, startDemoWorkload } from '@/server/demo/workload';
import { pumpUntil } from '@/server/learn/pump';
import { startClusterRig } from '@/server/learn/rig';
import { DEFAULT_MANUAL_START } from '@/server/sim';

/** Bump when a recording's content changes meaning: cached recordings of older versions are dropped. */
export const DEMO_RECORDING_VERSION = 2;

/** What the browser plays: the state the recording starts from and every event after it. */
export interface DemoRecording {
  version: number;
  seed: number;
  nodes: string[];
  /** Virtual time the recording starts and ends at (epoch ms). */
  start: number;
  end: number;
  initial: ClusterState;
  events: TimelineEvent[];
}

export interface DemoRecordOptions {
  /** Virtual time recorded (default 30 min). */
  durationMs?: number;
  nodes?: number;
  seed?: number;
  /** Real-time budget of the whole run (ms). */
  maxRealMs?: number;
  log?: (line: string) => void;
}

export const DEMO_DURATION_MS = 30 * 60_000;
export const DEMO_SEED = 1;
export const DEMO_STEP_MS = 500;
/** Virtual ms between two usage samples (the kubelet's eviction-monitoring period, 10 s). */
export const DEMO_STATS_MS = KUBELET_DEFAULTS.evictionMonitoringPeriodMs;

/** The embedded simulator's node names (server/sim startSimCluster), so the demo looks like `npm start`. */
export const demoNodeNames = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `sim-node-${String(i + 1).padStart(3, '0')}`);

export async function recordDemo(options: DemoRecordOptions = {}): Promise<DemoRecording> {
  const durationMs = options.durationMs ?? DEMO_DURATION_MS;
  const seed = options.seed ?? DEMO_SEED;
  const names = demoNodeNames(options.nodes ?? 3);
  const log = options.log ?? (() => undefined);
  const rig = await startClusterRig({
    nodes: names.map((name) => ({ name, seed: `demo/${seed}/${name}` })),
    backoffScale: DEMO_BACKOFF_SCALE,
    start: DEFAULT_MANUAL_START,
    log,
  });
  try {
    const initial = rig.engine.snapshot();
    const start = rig.clock.now();
    // Everything recorded falls after the snapshot's moment (a timeline file's period is
    // (start, end], lib/timeline/file/FORMAT.md): the workload begins a millisecond later.
    rig.clock.advance(1);
    const end = start + 1 + durationMs;
    const workload = await startDemoWorkload({
      drivers: rig.nodes.map((n) => n.driver),
      clock: rig.driverClock,
      seed,
      log,
    });
    // The workload and the drivers stop while the pump still runs: a pod applied at the last
    // moment (a Job's run falls due with the end) and a driver's workers mid-way (a kill's grace
    // period) need virtual time to finish; stopped after the pump, they waited for ever.
    // The engine's stats loop runs on the wall clock, so the rig turns it off (RECORDING_TIMINGS):
    // here one ListContainerStats round per eviction-monitoring period of virtual time takes its
    // place, so the recording holds the nodes' CPU and memory as the console shows them live.
    let sampling = true;
    const sample = (): void => {
      if (!sampling) return;
      void rig.engine.sampleUsage();
      rig.driverClock.setTimer(DEMO_STATS_MS, sample);
    };
    rig.driverClock.setTimer(DEMO_STATS_MS, sample);
    const over = new Promise<void>((resolve) => rig.driverClock.setTimer(durationMs, resolve))
      .then(() => {
        sampling = false;
      })
      .then(() => workload.stop())
      .then(() => Promise.all(rig.nodes.map((n) => n.driver.stop())));
    await pumpUntil(rig, over, {
      // Twice the walkthroughs' step: the demo's shortest period (its back-off) is 2 s.
      stepMs: DEMO_STEP_MS,
      maxVirtualMs: durationMs + 60_000,
      maxRealMs: options.maxRealMs ?? 600_000,
    });
    const events = rig.store
      .range({ limit: 1_000_000 })
      .filter((e) => e.seq > initial.seq && e.t <= end);
    return {
      version: DEMO_RECORDING_VERSION,
      seed,
      nodes: names,
      start,
      end,
      initial,
      events,
    };
  } finally {
    await rig.stop();
  }
}
