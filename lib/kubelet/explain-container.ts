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
import { why } from './why';

const CONVERT = 'pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses';
const BACKOFF = 'pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff';

export interface ContainerContext {
  /** The current back-off window, ms, when known (CrashLoopBackOff). */
  backoffMs?: number;
}

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
    if (s.started === false)
      return why(
        'container.running.notStarted',
        {},
        'pkg/kubelet/prober/prober_manager.go UpdatePodStatus',
        inputs,
      );
    if (s.ready !== true)
      return why(
        'container.running.notReady',
        {},
        'pkg/kubelet/prober/prober_manager.go UpdatePodStatus',
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
