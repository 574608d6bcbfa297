/**
 * Why a container shows the state it does (kubectl's STATE / REASON), from its V1ContainerStatus
 * and, for CrashLoopBackOff, the back-off window.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { MSG_INIT_ASSUMED_COMPLETED } from './convert';
import type { Explanation } from './explanation';
import {
  CompleteExitReason,
  ContainerCreating,
  ContainerReasonStatusUnknown,
  ErrCrashLoopBackOff,
  ErrorExitReason,
  IMAGE_PULL_REASONS,
  OOMExitReason,
  PodInitializing,
  StartErrorReason,
} from './reasons';
import { int32, isObj, str } from './util';
import type { ProbeResult } from './prober';
import { why } from './why';

const CONVERT = 'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses';
const BACKOFF = 'pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff';

export interface ContainerContext {
  /** The current back-off window, ms, when known (CrashLoopBackOff). */
  backoffMs?: number;
  /** The container's probes and what is known of their results (see lib/kubelet/prober.ts). */
  probe?: {
    startupProbe: boolean;
    readinessProbe: boolean;
    livenessProbe: boolean;
    /** Results from a source that knows them; absent when nobody told Podscope. */
    result?: ProbeResult;
    /** No source of probe results at all (watching a runtime read-only). */
    unseen: boolean;
  };
}

const PROBER = 'pkg/kubelet/prober/prober_manager.go UpdatePodStatus';
const MAX_OUTPUT = 200;
const clipOutput = (s: string) =>
  (s.length > MAX_OUTPUT ? `${s.slice(0, MAX_OUTPUT)}…` : s).trim() || '—';

/** Seconds of a back-off message such as `back-off 40s restarting …` or `back-off 2m40s …`. */
export function backoffFromMessage(message: string): number | undefined {
  const m = /^back-off (?:(\d+)m)?(\d+)s restarting/.exec(message);
  if (!m) return undefined;
  return (Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000;
}

export function explainContainerState(
  status: V1ContainerStatus,
  ctx: ContainerContext = {},
): Explanation {
  const s = isObj(status)
    ? status
    : ({ name: '', image: '', imageID: '', ready: false, restartCount: 0 } as V1ContainerStatus);
  const restarts = Math.max(0, int32(s.restartCount));
  const inputs = { restartCount: restarts, ready: s.ready === true, started: s.started ?? null };
  const state = isObj(s.state) ? s.state : {};
  const last =
    isObj(s.lastState) && isObj(s.lastState.terminated) ? s.lastState.terminated : undefined;
  if (isObj(state.waiting)) {
    const reason = str(state.waiting.reason);
    const message = str(state.waiting.message);
    if (reason === ContainerCreating) return why('container.waiting.creating', {}, CONVERT, inputs);
    if (reason === PodInitializing)
      return why('container.waiting.podInitializing', {}, CONVERT, inputs);
    if (reason === ErrCrashLoopBackOff) {
      const backoffMs = ctx.backoffMs ?? backoffFromMessage(message) ?? 0;
      return why(
        'container.waiting.crashLoop',
        {
          restarts,
          exitCode: int32(last?.exitCode),
          reason: str(last?.reason) || '—',
          backoff: Math.round(backoffMs / 1000),
          nextRestart: restarts + 1,
        },
        BACKOFF,
        {
          ...inputs,
          lastExitCode: int32(last?.exitCode),
          backoffSeconds: Math.round(backoffMs / 1000),
        },
      );
    }
    if (IMAGE_PULL_REASONS.has(reason))
      return why('container.waiting.image', { reason, message }, CONVERT, inputs);
    if (reason) return why('container.waiting.syncError', { reason, message }, CONVERT, inputs);
    if (last && str(last.reason) === ContainerReasonStatusUnknown) {
      return why('container.waiting.lostWhileRunning', { restarts }, CONVERT, inputs);
    }
    return why('container.waiting.created', {}, CONVERT, inputs);
  }
  if (isObj(state.running)) {
    const probe = ctx.probe;
    if (probe?.unseen && (probe.startupProbe || probe.readinessProbe)) {
      const probes = [
        ...(probe.startupProbe ? ['startupProbe'] : []),
        ...(probe.readinessProbe ? ['readinessProbe'] : []),
      ];
      return why('container.running.probesUnseen', { probes }, PROBER, inputs);
    }
    const startupRun = probe?.result?.startupRun;
    const readinessRun = probe?.result?.readinessRun;
    if (s.started === false) {
      if (startupRun && !startupRun.success)
        return why(
          'container.running.startupFailing',
          {
            failures: startupRun.consecutive,
            threshold: startupRun.threshold,
            output: clipOutput(startupRun.output),
          },
          PROBER,
          inputs,
        );
      return why('container.running.notStarted', {}, PROBER, inputs);
    }
    if (s.ready !== true) {
      if (readinessRun && !readinessRun.success)
        return why(
          'container.running.readinessFailed',
          {
            failures: readinessRun.consecutive,
            threshold: readinessRun.threshold,
            output: clipOutput(readinessRun.output),
          },
          PROBER,
          inputs,
        );
      return why('container.running.notReady', {}, PROBER, inputs);
    }
    if (probe?.readinessProbe && readinessRun?.success)
      return why(
        'container.running.readyByProbe',
        { successes: readinessRun.consecutive, threshold: readinessRun.threshold },
        PROBER,
        inputs,
      );
    return why('container.running.ready', {}, CONVERT, inputs);
  }
  if (isObj(state.terminated)) {
    const t = state.terminated;
    const exitCode = int32(t.exitCode);
    const reason = str(t.reason);
    const tInputs = { ...inputs, exitCode, reason };
    if (reason === ContainerReasonStatusUnknown)
      return why('container.terminated.statusUnknown', {}, CONVERT, tInputs);
    if (reason === CompleteExitReason && str(t.message) === MSG_INIT_ASSUMED_COMPLETED) {
      return why('container.terminated.initAssumedCompleted', {}, CONVERT, tInputs);
    }
    if (reason === OOMExitReason)
      return why('container.terminated.oomKilled', { exitCode }, CONVERT, tInputs);
    if (reason === StartErrorReason)
      return why(
        'container.terminated.startError',
        { exitCode, message: str(t.message) },
        CONVERT,
        tInputs,
      );
    if (exitCode === 0)
      return why(
        'container.terminated.completed',
        { reason: reason || CompleteExitReason },
        CONVERT,
        tInputs,
      );
    return why(
      'container.terminated.error',
      { exitCode, reason: reason || ErrorExitReason },
      CONVERT,
      tInputs,
    );
  }
  return why('container.unknown', {}, CONVERT, inputs);
}
