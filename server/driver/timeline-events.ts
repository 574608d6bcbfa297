/**
 * The driver's notes as timeline events (kind 'k8s', server/engine records them): what a kubelet
 * would have recorded as core/v1 Events, with its reasons and texts — Killing, Unhealthy,
 * ProbeWarning, FailedPostStartHook, FailedPreStopHook (source `kubelet`) — and the steps a
 * kubelet does not announce but a learner needs to see, worded by Podscope (source `podscope`):
 * a probe's stored result changing at its threshold, preStop and postStart hooks finishing with
 * their durations, StopContainer with the grace period left, unsupported spec fields.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { NewK8sEvent } from '@/server/engine/hints';
import type { DriverNote } from './notes';
import { probeTypeName } from './probes/spec';
import { NETWORK_NOT_READY_REASON } from './node/runtime-state';

export const PODSCOPE_SOURCE = 'podscope';
export const KUBELET_SOURCE = 'kubelet';
/** pkg/controller/tainteviction: the controller's event source component. */
export const TAINT_EVICTION_SOURCE = 'taint-eviction-controller';

function fieldPath(pod: V1Pod, container: string): string {
  const init = pod.spec?.initContainers?.some((c) => c.name === container) === true;
  return `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
}

/** The timeline event for a note, or undefined for notes that are not worth a row. */
export function noteToTimelineEvent(
  note: DriverNote,
  pod: V1Pod,
  node: string,
): NewK8sEvent | undefined {
  const e = note.event;
  const container = 'container' in e ? e.container : undefined;
  const base = {
    kind: 'k8s' as const,
    type: 'Event' as const,
    node,
    t: note.at,
    count: 1,
    firstTimestamp: note.at,
    lastTimestamp: note.at,
    podUid: note.uid,
    involvedObject: {
      kind: 'Pod',
      name: pod.metadata?.name ?? '',
      ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}),
      uid: note.uid,
      ...(container ? { fieldPath: fieldPath(pod, container) } : {}),
    },
    ...(container ? { container } : {}),
  };
  const kubelet = (eventType: 'Normal' | 'Warning', reason: string, message: string) => ({
    ...base,
    eventType,
    reason,
    message,
    source: KUBELET_SOURCE,
  });
  const podscope = (eventType: 'Normal' | 'Warning', reason: string, message: string) => ({
    ...base,
    eventType,
    reason,
    message,
    source: PODSCOPE_SOURCE,
  });
  switch (e.type) {
    case 'killing':
      return kubelet('Normal', 'Killing', e.message);
    case 'probeEvent':
      return kubelet('Warning', e.reason, e.message);
    case 'postStartFailed':
      return kubelet('Warning', 'FailedPostStartHook', e.message);
    case 'postStartFinished':
      return podscope(
        'Normal',
        'PostStartHook',
        `postStart hook of ${e.container} finished after ${(e.durationMs / 1000).toFixed(1)} s; until then the container was not Running for the kubelet`,
      );
    case 'preStopFinished':
      if (e.outcome === 'failed')
        return kubelet('Warning', 'FailedPreStopHook', `PreStopHook failed for ${e.container}`);
      if (e.outcome === 'timeout')
        return podscope(
          'Warning',
          'PreStopHook',
          `preStop hook of ${e.container} did not finish within the grace period (${e.seconds} s): it ate all of it`,
        );
      if (e.outcome === 'skipped') return undefined;
      return podscope(
        'Normal',
        'PreStopHook',
        `preStop hook of ${e.container} finished after ${e.seconds} s, taken from the grace period`,
      );
    case 'stopContainer':
      return podscope(
        'Normal',
        'StopContainer',
        `StopContainer ${e.container} with ${e.timeoutSeconds} s: the stop signal (SIGTERM) now, SIGKILL if it is still running then`,
      );
    case 'probeResult': {
      const name = probeTypeName(e.probe);
      const times = e.consecutive === 1 ? 'once' : `${e.consecutive} times in a row`;
      if (e.result === 'success') {
        const what =
          e.probe === 'readiness'
            ? 'ready'
            : e.probe === 'startup'
              ? 'started; liveness and readiness probes begin'
              : 'alive';
        return podscope(
          'Normal',
          'ProbeResult',
          `${name} probe of ${e.container} succeeded ${times} (successThreshold ${e.threshold}): ${what}`,
        );
      }
      if (e.result === 'failure') {
        const what =
          e.probe === 'readiness'
            ? 'not ready (the kubelet does not restart it)'
            : 'the kubelet kills the container';
        return podscope(
          'Warning',
          'ProbeResult',
          `${name} probe of ${e.container} failed ${times} (failureThreshold ${e.threshold}): ${what}`,
        );
      }
      return undefined;
    }
    case 'unsupported':
      return podscope('Warning', 'Unsupported', e.message);
    case 'evictedByKubelet':
      return kubelet('Warning', 'Evicted', e.message);
    case 'evicted':
      return {
        ...base,
        eventType: 'Normal',
        reason: 'TaintManagerEviction',
        message: e.message,
        source: TAINT_EVICTION_SOURCE,
      };
    case 'networkNotReady':
      return kubelet('Warning', NETWORK_NOT_READY_REASON, e.message);
    case 'preStopStarted':
    case 'postStartStarted':
    case 'stopped':
      return undefined;
  }
}
