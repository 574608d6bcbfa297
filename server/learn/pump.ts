/**
 * Moves a rig's virtual time while a scenario runs: wait until nothing is in flight, advance the
 * manual clock one step (timers fire: processes exit, back-offs end, the runner polls), wait
 * again, then relist and read the runtime's Status on the kubelet's periods, exactly once each —
 * so a recording depends on the seed and the scenario, not on how fast the machine is.
 *
 * While the runtime does not answer (a `stopAnswering` fault) every call costs its deadline in
 * real time; the pump then takes longer steps, as a kubelet whose relists block on a timeout would.
 */
import { RECORDING_TIMINGS, type ClusterRig } from './rig';

export interface PumpOptions {
  /** Virtual ms per step while the runtime answers. */
  stepMs?: number;
  /** Virtual ms per step while it does not. */
  silentStepMs?: number;
  /** Give up after this much virtual time. */
  maxVirtualMs: number;
  /** Give up after this much real time. */
  maxRealMs?: number;
  realNow?: () => number;
  /** Runs after each step's engine tick (the scenario's API server: its writers and drift). */
  afterTick?: () => void;
}

export class PumpError extends Error {
  override name = 'PumpError';
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once no runtime call that can finish without virtual time is in flight, for 3 turns. */
export async function quiet(
  rig: Pick<ClusterRig, 'ledger'>,
  deadline: number,
  realNow: () => number,
): Promise<void> {
  let calm = 0;
  let last = rig.ledger.activity;
  while (calm < 3) {
    if (realNow() > deadline)
      throw new PumpError(
        `runtime calls still in flight (${rig.ledger.size}) when the real-time budget ran out`,
      );
    if (rig.ledger.busy()) {
      calm = 0;
      // A call over the socket: give the event loop real time to read its answer.
      await pause(1);
      continue;
    }
    await turn();
    if (rig.ledger.activity !== last) {
      last = rig.ledger.activity;
      calm = 0;
    } else calm++;
  }
}

/** Runs the pump until `done` settles; resolves with its value (or rejects with its error). */
export async function pumpUntil<T>(
  rig: ClusterRig,
  done: Promise<T>,
  options: PumpOptions,
): Promise<T> {
  const realNow = options.realNow ?? (() => performance.now());
  const stepMs = options.stepMs ?? 250;
  const silentStepMs = options.silentStepMs ?? 5_000;
  const realDeadline = realNow() + (options.maxRealMs ?? 180_000);
  const start = rig.clock.now();
  let settled = false;
  const watched = done.finally(() => {
    settled = true;
  });
  // Keep an early rejection from being reported as unhandled while the pump is still working.
  watched.catch(() => undefined);

  const { relistMs, nodeStatusMs } = RECORDING_TIMINGS;
  let nextRelist = start + relistMs;
  let nextStatus = start + nodeStatusMs;
  for (;;) {
    await quiet(rig, realDeadline, realNow);
    if (settled) break;
    if (rig.clock.now() - start > options.maxVirtualMs)
      throw new PumpError(`still running after ${options.maxVirtualMs / 1000} s of scenario time`);
    // A runtime that does not answer, or a kubelet cut off from the API server: nothing moves on
    // the node but the clock, so the pump takes the longer steps.
    const silent = rig.nodes.some((n) => n.sim.listener !== 'grpc' || n.driver.partitioned);
    rig.clock.advance(silent ? silentStepMs : stepMs);
    await quiet(rig, realDeadline, realNow);
    if (settled) break;
    const now = rig.clock.now();
    if (now >= nextStatus) {
      for (const n of rig.nodes) await n.watcher.readStatus();
      nextStatus = now + nodeStatusMs;
    }
    if (now >= nextRelist) {
      for (const n of rig.nodes) await n.watcher.relist();
      nextRelist = now + relistMs;
    }
    // Node conditions and evictions that fall due with time alone.
    rig.engine.tick();
    options.afterTick?.();
  }
  return watched;
}
