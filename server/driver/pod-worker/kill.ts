/**
 * Stopping containers the way the kubelet does: preStop hook, then StopContainer with what is left
 * of the grace period (the runtime sends the stop signal, SIGTERM, and SIGKILLs at the timeout).
 *
 * Ports (kubernetes/kubernetes master as stored):
 * - killContainer, executePreStopHook, setTerminationGracePeriod, minimumGracePeriodInSeconds
 *   (pkg/kubelet/kuberuntime/kuberuntime_container.go): the hook races the grace period; its
 *   whole seconds are subtracted; StopContainer never gets less than 2 s.
 * - terminationOrdering (pkg/kubelet/kuberuntime/kuberuntime_termination_order.go): with sidecars,
 *   a sidecar is stopped only after every regular container and every sidecar declared after it
 *   has stopped (or its remaining grace ran out); preStop hooks all start at once.
 *
 * Hooks: `exec` runs through ExecSync (a runtime without it answers UNIMPLEMENTED: the hook is
 * skipped and said so), `sleep` waits on the driver's clock (the kubelet sleeps in-process);
 * `httpGet` / `tcpSocket` are not supported (no pod network here) and are skipped with a note.
 */
import type { V1Container, V1LifecycleHandler, V1Pod } from '@kubernetes/client-node';
import { isRestartableInitContainer } from '@/lib/kubelet/restart';
import type { DriverClock } from '../clock';
import type { DriverRuntime } from '../runtime';
import { isNotFound, isUnimplemented, rpcErrorText } from '../runtime';

export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** Resolves after `ms` on the clock. */
export function clockDelay(clock: DriverClock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(ms, resolve));
}

/** Whichever settles first: the promise, or the clock reaching `ms` from now (→ 'timeout'). */
export async function raceClock<T>(
  clock: DriverClock,
  ms: number,
  p: Promise<T>,
): Promise<T | 'timeout'> {
  let timer: { cancel(): void } | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = clock.setTimer(ms, () => resolve('timeout'));
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    timer?.cancel();
  }
}

/** setTerminationGracePeriod: the deletion's grace period if any, else the pod's, else 2 s. */
export function terminationGracePeriod(pod: V1Pod): number {
  const deletion = pod.metadata?.deletionGracePeriodSeconds;
  if (typeof deletion === 'number') return deletion;
  const spec = pod.spec?.terminationGracePeriodSeconds;
  return typeof spec === 'number' ? spec : MINIMUM_GRACE_PERIOD_SECONDS;
}

export interface KillContext {
  runtime: DriverRuntime;
  clock: DriverClock;
  log: (line: string) => void;
  /** Tells the owner what happened, for tests and the scenario runner's narration. */
  note?: (event: KillEvent) => void;
}

export type KillEvent =
  | {
      /** The kubelet's Normal `Killing` event: "Stopping container app", or why it kills. */
      type: 'killing';
      container: string;
      containerId: string;
      message: string;
      gracePeriodSeconds: number;
    }
  | { type: 'preStopStarted'; container: string; handler: 'exec' | 'sleep' | 'unsupported' }
  | {
      type: 'preStopFinished';
      container: string;
      outcome: 'completed' | 'failed' | 'timeout' | 'skipped';
      /** Whole seconds the hook took out of the grace period. */
      seconds: number;
    }
  | { type: 'stopContainer'; container: string; timeoutSeconds: number }
  | { type: 'stopped'; container: string };

/** Runs one preStop handler to completion (errors are reported, never thrown). */
async function runHandler(
  ctx: KillContext,
  where: string,
  id: string,
  container: V1Container,
  handler: V1LifecycleHandler,
  graceSeconds: number,
): Promise<'completed' | 'failed' | 'skipped'> {
  if (handler.exec?.command && handler.exec.command.length > 0) {
    ctx.note?.({ type: 'preStopStarted', container: container.name, handler: 'exec' });
    try {
      const result = await ctx.runtime.execSync(id, handler.exec.command, graceSeconds);
      if (result.exitCode !== 0) {
        ctx.log(`${where}: PreStopHook failed: command exited ${result.exitCode}`);
        return 'failed';
      }
      return 'completed';
    } catch (err) {
      if (isUnimplemented(err)) {
        ctx.log(`${where}: preStop exec skipped: the runtime does not implement ExecSync`);
        return 'skipped';
      }
      ctx.log(`${where}: PreStopHook failed: ${rpcErrorText(err)}`);
      return 'failed';
    }
  }
  if (handler.sleep) {
    ctx.note?.({ type: 'preStopStarted', container: container.name, handler: 'sleep' });
    await clockDelay(ctx.clock, Math.max(0, handler.sleep.seconds) * 1000);
    return 'completed';
  }
  ctx.note?.({ type: 'preStopStarted', container: container.name, handler: 'unsupported' });
  ctx.log(`${where}: preStop handler skipped: only exec and sleep hooks are supported`);
  return 'skipped';
}

/** executePreStopHook: returns the whole seconds it took (the hook never outlives the grace period). */
export async function executePreStopHook(
  ctx: KillContext,
  where: string,
  id: string,
  container: V1Container,
  graceSeconds: number,
): Promise<number> {
  const handler = container.lifecycle?.preStop;
  if (!handler) return 0;
  const start = ctx.clock.now();
  const outcome = await raceClock(
    ctx.clock,
    graceSeconds * 1000,
    runHandler(ctx, where, id, container, handler, graceSeconds),
  );
  if (outcome === 'timeout') ctx.log(`${where}: PreStop hook not completed in grace period`);
  const seconds = Math.trunc((ctx.clock.now() - start) / 1000);
  ctx.note?.({ type: 'preStopFinished', container: container.name, outcome, seconds });
  return seconds;
}

/**
 * terminationOrdering: which containers each running container must wait for before it is
 * stopped. Regular containers wait for nobody; sidecar i waits for every running regular
 * container and every running sidecar declared after it.
 */
export class TerminationOrdering {
  private readonly done = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  private readonly prerequisites = new Map<string, string[]>();

  constructor(pod: V1Pod, runningNames: readonly string[]) {
    const running = new Set(runningNames);
    for (const name of running) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      this.done.set(name, { promise, resolve });
    }
    const regular = (pod.spec?.containers ?? []).map((c) => c.name).filter((n) => running.has(n));
    const sidecars = (pod.spec?.initContainers ?? [])
      .filter((c) => isRestartableInitContainer(c))
      .map((c) => c.name);
    sidecars.forEach((name, i) => {
      if (!running.has(name)) return;
      const later = sidecars.slice(i + 1).filter((n) => running.has(n));
      this.prerequisites.set(name, [...regular, ...later]);
    });
  }

  /** Waits for this container's turn, at most `graceSeconds`; returns the whole seconds waited. */
  async waitForTurn(clock: DriverClock, name: string, graceSeconds: number): Promise<number> {
    const before = (this.prerequisites.get(name) ?? [])
      .map((n) => this.done.get(n)?.promise)
      .filter((p): p is Promise<void> => p !== undefined);
    if (before.length === 0) return 0;
    const start = clock.now();
    await raceClock(clock, graceSeconds * 1000, Promise.all(before));
    return Math.trunc((clock.now() - start) / 1000);
  }

  containerTerminated(name: string): void {
    this.done.get(name)?.resolve();
  }
}

/**
 * killContainer: preStop (when the grace period leaves time for it), the ordering wait, then
 * StopContainer(timeout = what is left, at least 2 s). NOT_FOUND counts as stopped.
 */
export async function killContainer(
  ctx: KillContext,
  input: {
    where: string;
    id: string;
    container: V1Container;
    graceSeconds: number;
    ordering?: TerminationOrdering;
    /** Why it is killed (the Killing event's message); default "Stopping container NAME". */
    message?: string;
  },
): Promise<void> {
  const { where, id, container, ordering } = input;
  let grace = input.graceSeconds;
  ctx.note?.({
    type: 'killing',
    container: container.name,
    containerId: id,
    message: input.message ?? `Stopping container ${container.name}`,
    gracePeriodSeconds: grace,
  });
  try {
    if (container.lifecycle?.preStop && grace > 0) {
      grace -= await executePreStopHook(ctx, where, id, container, grace);
    }
    if (ordering && grace > 0)
      grace -= await ordering.waitForTurn(ctx.clock, container.name, grace);
    grace = Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS);
    ctx.note?.({ type: 'stopContainer', container: container.name, timeoutSeconds: grace });
    try {
      await ctx.runtime.stopContainer(id, grace);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    ctx.note?.({ type: 'stopped', container: container.name });
  } finally {
    ordering?.containerTerminated(container.name);
  }
}
