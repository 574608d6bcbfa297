/**
 * Why the pod has its phase: the deciding branch of getPhase and the counts behind it.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { Explanation } from './explanation';
import type { FeatureGates } from './gates';
import { computePhase, podRestartPolicy, type PhaseDecision } from './phase';
import type { PodPhase } from './types';
import { specOf } from './util';
import { why, type WhyInputs } from './why';

const RULE = 'pkg/kubelet/kubelet_pods.go getPhase';

export function phaseExplanation(d: PhaseDecision, pod: V1Pod): Explanation {
  const c = d.counts;
  const view = specOf(pod);
  const total =
    view.containers.length + view.initContainers.filter((x) => x.restartPolicy === 'Always').length;
  const inputs: WhyInputs = {
    restartPolicy: podRestartPolicy(pod),
    running: c.running,
    waiting: c.waiting,
    stopped: c.stopped,
    succeeded: c.succeeded,
    unknown: c.unknown,
    pendingInit: c.pendingRegularInitContainers,
    rule: d.rule,
  };
  const failed = c.stopped - c.succeeded;
  switch (d.rule) {
    case 'initFailedNotRestartable':
      return why(
        'phase.failed.initNotRestartable',
        { name: d.failedInit?.name ?? '', exitCode: d.failedInit?.exitCode ?? 0 },
        RULE,
        inputs,
      );
    case 'initFailedRestartNever':
      return why('phase.failed.initRestartNever', { failed: c.failedInitialization }, RULE, inputs);
    case 'initPending':
      return why(
        'phase.pending.initPending',
        { pending: c.pendingRegularInitContainers, names: d.names.pendingInit },
        RULE,
        inputs,
      );
    case 'sidecarNotStarted':
      return why(
        'phase.pending.sidecarNotStarted',
        { pending: c.pendingRestartableInitContainers, names: d.names.pendingSidecar },
        RULE,
        inputs,
      );
    case 'waiting':
      return why(
        'phase.pending.waiting',
        { waiting: c.waiting, names: d.names.waiting },
        RULE,
        inputs,
      );
    case 'running':
      return why('phase.running.allStarted', { running: c.running, total }, RULE, inputs);
    case 'terminalSucceeded':
      return why('phase.succeeded.terminal', {}, RULE, inputs);
    case 'terminalFailed':
      return why('phase.failed.terminal', { failed, stopped: c.stopped }, RULE, inputs);
    case 'someRestartable':
      return why(
        'phase.running.someRestartable',
        {
          restartable: c.stopped - c.stoppedNotRestartable,
          stopped: c.stopped,
          restartPolicy: podRestartPolicy(pod),
        },
        RULE,
        inputs,
      );
    case 'allSucceeded':
      return why('phase.succeeded.allSucceeded', { succeeded: c.succeeded }, RULE, inputs);
    case 'notRestartableFailed':
      return why('phase.failed.notRestartable', { failed, stopped: c.stopped }, RULE, inputs);
    case 'restartAlways':
      return why('phase.running.restartAlways', { stopped: c.stopped }, RULE, inputs);
    case 'restartNeverFailed':
      return why('phase.failed.restartNever', { failed, stopped: c.stopped }, RULE, inputs);
    case 'restartOnFailure':
      return why('phase.running.restartOnFailure', { failed }, RULE, inputs);
    case 'notStarted':
      return why('phase.pending.notStarted', { unknown: c.unknown, total }, RULE, inputs);
  }
}

/** explainPhase: same inputs as getPhase; names the deciding rule and the counts. */
export function explainPhase(
  pod: V1Pod,
  statuses: readonly V1ContainerStatus[],
  podIsTerminal: boolean,
  podHasInitialized: boolean,
  gates?: FeatureGates,
): Explanation {
  return phaseExplanation(
    computePhase(pod, statuses, podIsTerminal, podHasInitialized, gates),
    pod,
  );
}

/** The phase was kept terminal by the three-way merge (pods never leave Succeeded or Failed). */
export function keptTerminalExplanation(phase: PodPhase, computed: PodPhase): Explanation {
  return why(
    'phase.kept.terminal',
    { phase, computed },
    'pkg/kubelet/kubelet_pods.go generateAPIPodStatus',
    {
      phase,
      computed,
    },
  );
}
