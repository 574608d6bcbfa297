/**
 * runScenario: executes a scenario's steps through the driver (and the simulator's fault controls),
 * waiting for each step's expected outcome on the derived state with a timeout, and reports per
 * step what was expected, what was observed, and whether it passed.
 *
 * All waiting is on the injected clock (scenario time: the simulator's clock, sped up or manual;
 * wall time on a lab runtime). The first failed step ends the run (the rest are reported as
 * skipped); afterwards faults are cleared and the scenario's pods deleted unless `keep` is set.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterState } from '@/lib/timeline/state';
import type { DriverClock } from '@/server/driver/clock';
import { clockDelay, raceClock } from '@/server/driver/pod-worker/kill';
import type { SimCondition } from '@/server/sim';
import { check, type Check, type EvalContext } from './evaluate';
import { startTaintEviction } from './taint-eviction';
import { needsSimulator, parseDuration, type FaultKind, type Scenario, type Step } from './schema';

/** What the runner needs of the driver (server/driver's Driver). */
export interface ScenarioDriver {
  readonly node: string;
  apply(pod: V1Pod): Promise<V1Pod>;
  delete(uid: string, opts?: { gracePeriodSeconds?: number }): Promise<void>;
  readonly configs: {
    putConfigMap(namespace: string, name: string, data: Readonly<Record<string, string>>): void;
  };
  resyncAll(): void;
  /** The API server deleted the pod (the taint-eviction controller); taint-eviction.ts. */
  evict?(uid: string): void;
  /** Cuts or heals the kubelet's connection to the API server (the `partition` fault). */
  partition?(on: boolean): void;
  /** The pods it runs now (an evicted pod may be gone before the scenario ends). */
  pods?(): readonly { uid: string }[];
  /** The API server removes the pod at once (the `forceDelete` step; apiserver.ts). */
  forceDelete?(uid: string): void;
}

/** The scenario's API server (apiserver.ts ScenarioApiServer), for `apiServer: true`. */
export interface ScenarioApi {
  /** The driver with every pod change going through the API server first. */
  wrap(): ScenarioDriver;
  /**
   * One round of the API server's writers and its comparison with the node, now. The runner
   * calls it before each observation: the kubelet's status manager posts a pod's status as soon
   * as it changes, so an expectation about the API server's copy ("in sync", "stale") must be
   * judged against a comparison made after the change, not one from the writers' last round.
   */
  tick?(): void;
}

/** The simulator's fault controls (a SimNode has them). */
export interface SimControl {
  setCondition(type: 'RuntimeReady' | 'NetworkReady', condition: SimCondition): void;
  setListener(mode: 'grpc' | 'hang' | 'down'): Promise<void>;
  /** Node usage outside the pods (the `memoryPressure` fault). */
  setPressure?(pressure: { memoryBytes?: number }): void;
}

export interface RunOptions {
  driver: ScenarioDriver;
  simControl?: SimControl;
  clock: DriverClock;
  /** The derived state now: the engine's snapshot, or a relist put through lib/kubelet. */
  observe: () => ClusterState | Promise<ClusterState>;
  /** The API server a scenario with `apiServer: true` needs (its writers run on their own). */
  api?: ScenarioApi;
  /** How often expectations are re-checked, in scenario time (default 250 ms). */
  pollMs?: number;
  /** Timeout of a step that names none (default 2 min of scenario time). */
  defaultTimeoutMs?: number;
  /** Leave the pods on the node afterwards (walkthroughs keep them to look at). */
  keep?: boolean;
  /**
   * Scenario time between one step's end and the next step's action (default 0). A recording
   * shows each step at its own moment, so the next step must not act at the same instant the
   * last one's outcome was seen (server/learn gives it one poll).
   */
  settleMs?: number;
  onStepStart?: (index: number, step: Step) => void;
  onStepDone?: (result: StepResult) => void;
}

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  index: number;
  do: Step['do'];
  /** The pod key or fault kind the step acted on. */
  target?: string;
  say?: string;
  status: StepStatus;
  checks: Check[];
  /** Scenario time the step started and ended (epoch ms). */
  startedAt?: number;
  endedAt?: number;
  error?: string;
}

export interface ScenarioResult {
  id: string;
  ok: boolean;
  steps: StepResult[];
  /** Scenario time the whole run took. */
  durationMs: number;
  /** Problems while cleaning up (never change `ok`). */
  cleanup: string[];
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_POLL_MS = 250;
const EMPTY_STATE: ClusterState = { seq: 0, t: 0, nodes: {} };
/** How long the runner waits for its pods to be gone at the end. */
export const CLEANUP_TIMEOUT_MS = 120_000;

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

function targetOf(step: Step): string | undefined {
  if (step.do === 'fault') return step.fault;
  if (step.do === 'createConfigMap') return `${step.namespace}/${step.name}`;
  return 'pod' in step ? step.pod : undefined;
}

export async function runScenario(
  scenario: Scenario,
  options: RunOptions,
): Promise<ScenarioResult> {
  if (needsSimulator(scenario) && !options.simControl) {
    throw new ScenarioError(
      `scenario ${scenario.id} injects faults: it runs only on the embedded simulator`,
    );
  }
  if (scenario.apiServer && !options.api) {
    throw new ScenarioError(`scenario ${scenario.id} compares with an API server: none was given`);
  }
  const { clock } = options;
  const driver = scenario.apiServer && options.api ? options.api.wrap() : options.driver;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const uids = new Map<string, string>();
  const deletions: Promise<void>[] = [];
  const deletionErrors: string[] = [];
  const start = clock.now();

  // The control plane's part: pods whose toleration of the node's NoExecute taint ran out go.
  const eviction = startTaintEviction({ driver, clock, observe: options.observe });

  const ctxAt = (state: ClusterState): EvalContext => ({
    state,
    node: driver.node,
    now: clock.now(),
    podName: (ref) => {
      const meta = scenario.pods[ref]?.metadata;
      return meta ? { namespace: meta.namespace ?? 'default', name: meta.name } : undefined;
    },
  });

  const act = async (step: Step): Promise<void> => {
    switch (step.do) {
      case 'apply': {
        const template = scenario.pods[step.pod];
        if (!template) throw new ScenarioError(`unknown pod "${step.pod}"`);
        const applied = await driver.apply(structuredClone(template));
        uids.set(step.pod, applied.metadata?.uid ?? '');
        return;
      }
      case 'delete': {
        const uid = uids.get(step.pod);
        if (!uid) throw new ScenarioError(`pod "${step.pod}" was not applied`);
        // Not awaited: the step watches the pod go through its termination.
        const p = driver
          .delete(
            uid,
            step.gracePeriodSeconds !== undefined
              ? { gracePeriodSeconds: step.gracePeriodSeconds }
              : {},
          )
          .then(() => {
            uids.delete(step.pod);
          });
        deletions.push(p.catch((err: unknown) => void deletionErrors.push(errorText(err))));
        return;
      }
      case 'forceDelete': {
        const uid = uids.get(step.pod);
        if (!uid) throw new ScenarioError(`pod "${step.pod}" was not applied`);
        if (!driver.forceDelete) throw new ScenarioError('forceDelete needs the API server');
        driver.forceDelete(uid);
        return;
      }
      case 'fault':
        if (!options.simControl) throw new ScenarioError('fault steps need the simulator');
        await applyFault(options.simControl, step.fault, driver);
        return;
      case 'createConfigMap':
        driver.configs.putConfigMap(step.namespace, step.name, step.data);
        driver.resyncAll();
        return;
      case 'wait':
        if (step.for) await clockDelay(clock, parseDuration(step.for) ?? 0);
        return;
      case 'annotate':
        return;
    }
  };

  const await_ = async (step: Step): Promise<{ ok: boolean; checks: Check[] }> => {
    const expectations = step.do === 'annotate' ? [] : (step.expect ?? []);
    if (expectations.length === 0) return { ok: true, checks: [] };
    const timeoutMs =
      (step.do !== 'annotate' && step.timeout ? parseDuration(step.timeout) : undefined) ??
      options.defaultTimeoutMs ??
      DEFAULT_TIMEOUT_MS;
    const deadline = clock.now() + timeoutMs;
    for (;;) {
      let checks: Check[];
      try {
        options.api?.tick?.();
        const ctx = ctxAt(await options.observe());
        checks = expectations.map((e) => check(ctx, e));
      } catch (err) {
        // An observer that cannot read the runtime right now (it is hung, say): keep trying.
        const observed = `observation failed: ${errorText(err)}`;
        checks = expectations.map((e) => ({
          ...check(ctxAt(EMPTY_STATE), e),
          ok: false,
          observed,
        }));
      }
      if (checks.every((c) => c.ok)) return { ok: true, checks };
      if (deletionErrors.length > 0) {
        return {
          ok: false,
          checks: [
            ...checks,
            { ok: false, expected: 'deletion', observed: deletionErrors.join('; ') },
          ],
        };
      }
      if (clock.now() >= deadline) return { ok: false, checks };
      await clockDelay(clock, Math.min(pollMs, Math.max(1, deadline - clock.now())));
    }
  };

  const results: StepResult[] = [];
  let failed = false;
  for (const [index, step] of scenario.steps.entries()) {
    const base = {
      index,
      do: step.do,
      ...(targetOf(step) ? { target: targetOf(step) } : {}),
      ...(step.say ? { say: step.say } : {}),
    };
    if (failed) {
      results.push({ ...base, status: 'skipped', checks: [] });
      continue;
    }
    if (index > 0 && (options.settleMs ?? 0) > 0) await clockDelay(clock, options.settleMs ?? 0);
    options.onStepStart?.(index, step);
    const startedAt = clock.now();
    let result: StepResult;
    try {
      await act(step);
      const outcome = await await_(step);
      result = {
        ...base,
        status: outcome.ok ? 'passed' : 'failed',
        checks: outcome.checks,
        startedAt,
        endedAt: clock.now(),
      };
    } catch (err) {
      result = {
        ...base,
        status: 'failed',
        checks: [],
        startedAt,
        endedAt: clock.now(),
        error: errorText(err),
      };
    }
    failed = result.status === 'failed';
    results.push(result);
    options.onStepDone?.(result);
  }

  eviction.stop();
  const cleanup = await cleanUp({ ...options, driver }, uids, deletions);
  return {
    id: scenario.id,
    ok: results.every((r) => r.status === 'passed'),
    steps: results,
    durationMs: clock.now() - start,
    cleanup: [...deletionErrors, ...cleanup],
  };
}

const CONDITIONS: Record<'RuntimeReady' | 'NetworkReady', SimCondition> = {
  RuntimeReady: { status: true, reason: '', message: '' },
  NetworkReady: { status: true, reason: '', message: '' },
};

/** What the `memoryPressure` fault takes outside the pods (schema.ts). */
export const MEMORY_PRESSURE_BYTES = 4 * 2 ** 30;

export async function applyFault(
  sim: SimControl,
  fault: FaultKind,
  driver?: Pick<ScenarioDriver, 'partition'>,
): Promise<void> {
  switch (fault) {
    case 'partition':
      if (!driver?.partition) throw new ScenarioError('a partition needs the kubelet stand-in');
      driver.partition(true);
      return;
    case 'runtimeNotReady':
      sim.setCondition('RuntimeReady', {
        status: false,
        reason: 'RuntimeNotReady',
        message: 'the container runtime reports it is not ready (fault injected by the scenario)',
      });
      return;
    case 'networkNotReady':
      sim.setCondition('NetworkReady', {
        status: false,
        reason: 'NetworkPluginNotReady',
        message: 'Network plugin returns error: cni plugin not initialized',
      });
      return;
    case 'memoryPressure':
      if (!sim.setPressure) throw new ScenarioError('memory pressure needs the simulator');
      sim.setPressure({ memoryBytes: MEMORY_PRESSURE_BYTES });
      return;
    case 'stopAnswering':
      await sim.setListener('hang');
      return;
    case 'runtimeDown':
      await sim.setListener('down');
      return;
    case 'recover':
      driver?.partition?.(false);
      sim.setPressure?.({ memoryBytes: 0 });
      sim.setCondition('RuntimeReady', CONDITIONS.RuntimeReady);
      sim.setCondition('NetworkReady', CONDITIONS.NetworkReady);
      await sim.setListener('grpc');
      return;
  }
}

/** Clear faults, then delete what the scenario left (quickly: 0 s grace → the kubelet's 2 s minimum). */
async function cleanUp(
  options: RunOptions,
  uids: Map<string, string>,
  deletions: Promise<void>[],
): Promise<string[]> {
  const problems: string[] = [];
  if (options.simControl) {
    try {
      await applyFault(options.simControl, 'recover', options.driver);
    } catch (err) {
      problems.push(`clearing faults: ${errorText(err)}`);
    }
  }
  if (!options.keep) {
    const present = options.driver.pods
      ? new Set(options.driver.pods().map((p) => p.uid))
      : undefined;
    for (const [ref, uid] of uids) {
      // Deleted by the control plane (a taint eviction) and already gone.
      if (present && !present.has(uid)) continue;
      deletions.push(
        options.driver.delete(uid, { gracePeriodSeconds: 0 }).catch((err: unknown) => {
          problems.push(`deleting ${ref}: ${errorText(err)}`);
        }),
      );
    }
  }
  const done = await raceClock(options.clock, CLEANUP_TIMEOUT_MS, Promise.all(deletions));
  if (done === 'timeout')
    problems.push(`pods still being deleted after ${CLEANUP_TIMEOUT_MS / 1000}s of scenario time`);
  return problems;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
