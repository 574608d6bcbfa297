/**
 * The explanation ids lib/kubelet can emit, with the parameter names each one takes. The `why`
 * catalogues (messages/<locale>/why.json) must define every id with exactly these parameters;
 * why.test.ts checks both locales against this table.
 */
import type { Explanation, ExplanationParam } from './explanation';

export const WHY = {
  // pod phase (getPhase)
  'phase.pending.initPending': ['pending', 'names'],
  'phase.pending.sidecarNotStarted': ['pending', 'names'],
  'phase.pending.waiting': ['waiting', 'names'],
  'phase.pending.notStarted': ['unknown', 'total'],
  'phase.running.allStarted': ['running', 'total'],
  'phase.running.restartAlways': ['stopped'],
  'phase.running.someRestartable': ['restartable', 'stopped', 'restartPolicy'],
  'phase.running.restartOnFailure': ['failed'],
  'phase.succeeded.allSucceeded': ['succeeded'],
  'phase.succeeded.terminal': [],
  'phase.failed.terminal': ['failed', 'stopped'],
  'phase.failed.initNotRestartable': ['name', 'exitCode'],
  'phase.failed.initRestartNever': ['failed'],
  'phase.failed.notRestartable': ['failed', 'stopped'],
  'phase.failed.restartNever': ['failed', 'stopped'],
  'phase.kept.terminal': ['phase', 'computed'],
  'phase.failed.deadlineExceeded': ['seconds'],
  'phase.failed.evicted': ['message'],
  'phase.stoppedUnknown': ['exitCodes'],
  // pod conditions (status/generate.go)
  'condition.containersReady.true': ['count'],
  'condition.containersReady.unknownStatuses': [],
  'condition.containersReady.podCompleted': [],
  'condition.containersReady.podFailed': [],
  'condition.containersReady.notReady': ['unknown', 'unready', 'unknownCount', 'unreadyCount'],
  'condition.ready.true': ['gates'],
  'condition.ready.containersNotReady': ['reason'],
  'condition.ready.gatesNotReady': ['gates'],
  'condition.ready.nodeNotReady': ['nodeStatus'],
  'condition.ready.markedOnBinding': ['nodeStatus'],
  'condition.ready.kubeletReportsNodeNotReady': ['cause'],
  'condition.ready.nodeUnknownNotMarked': [],
  'condition.initialized.true': ['count'],
  'condition.initialized.noInitContainers': [],
  'condition.initialized.unknownStatuses': [],
  'condition.initialized.podCompleted': [],
  'condition.initialized.regularStarted': [],
  'condition.initialized.keptTrue': [],
  'condition.initialized.notInitialized': [
    'unknown',
    'incomplete',
    'unknownCount',
    'incompleteCount',
  ],
  'condition.readyToStart.true': [],
  'condition.readyToStart.noSandbox': [],
  'condition.readyToStart.multipleReady': ['count'],
  'condition.readyToStart.notReady': [],
  'condition.readyToStart.networkNamespaceMode': ['want', 'got'],
  'condition.readyToStart.noIP': [],
  'condition.scheduled.true': [],
  // container states (convertToAPIContainerStatuses and the reason cache)
  'container.waiting.creating': [],
  'container.waiting.podInitializing': [],
  'container.waiting.created': [],
  'container.waiting.lostWhileRunning': ['restarts'],
  'container.waiting.crashLoop': ['restarts', 'exitCode', 'reason', 'backoff', 'nextRestart'],
  'container.waiting.image': ['reason', 'message'],
  'container.waiting.syncError': ['reason', 'message'],
  'container.running.ready': [],
  'container.running.notReady': [],
  'container.running.notStarted': [],
  'container.running.readinessFailed': ['failures', 'threshold', 'output'],
  'container.running.readyByProbe': ['successes', 'threshold'],
  'container.running.startupFailing': ['failures', 'threshold', 'output'],
  'container.running.probesUnseen': ['probes'],
  'container.terminated.completed': ['reason'],
  'container.terminated.error': ['exitCode', 'reason'],
  'container.terminated.oomKilled': ['exitCode'],
  'container.terminated.startError': ['exitCode', 'message'],
  'container.terminated.statusUnknown': [],
  'container.terminated.initAssumedCompleted': [],
  'container.unknown': [],
  // node conditions (nodestatus setters, runtimeState, PLEG, node lifecycle controller, eviction manager)
  'node.ready.true': [],
  'node.ready.unknown': ['seconds', 'grace'],
  'node.ready.kubeletSilent': ['seconds', 'grace'],
  'node.ready.neverContacted': [],
  'node.ready.runtimeStatusPending': ['count'],
  'node.ready.runtimeDown': ['seconds', 'threshold', 'count'],
  'node.ready.plegNeverSucceeded': ['count'],
  'node.ready.plegUnhealthy': ['elapsed', 'threshold', 'count'],
  'node.ready.runtimeNotReady': ['reason', 'message', 'count'],
  'node.ready.networkNotReady': ['reason', 'message', 'count'],
  'node.ready.networkUnknown': ['count'],
  'node.ready.startupGrace': ['seconds', 'grace'],
  'node.pressure.false': ['condition', 'signal', 'observed', 'threshold'],
  'node.pressure.true': ['condition', 'signal', 'observed', 'threshold'],
  'node.pressure.holding': ['condition', 'seconds'],
  'node.pressure.trueUsage': ['condition', 'signal', 'observed', 'threshold', 'pods'],
  'node.pressure.holdingUsage': ['condition', 'seconds', 'pods'],
  'node.pressure.unknownResources': ['condition', 'signal'],
  'node.pressure.noThreshold': ['condition', 'signal'],
  'node.pressure.nodeUnknown': ['condition'],
  'node.network.available': [],
  'node.network.unavailable': ['reason', 'message'],
  'node.network.unknown': [],
  // eviction of pods from a not-ready node
  'pod.eviction.due': ['seconds', 'taint'],
  // the kubelet version whose rules apply to a node (version.ts)
  'node.kubelet.apiServer': ['version', 'reported'],
  'node.kubelet.flag': ['version', 'reported'],
  'node.kubelet.default': ['version'],
  'node.kubelet.outOfRange': ['version', 'reported', 'from', 'oldest', 'newest'],
  // where hostIP(s) come from (generateAPIPodStatus)
  'pod.hostIPs.apiserver': ['hostIPs'],
  'pod.hostIPs.configured': ['hostIPs'],
  'pod.hostIPs.detected': ['hostIPs'],
  // state machine edges (machines.ts)
  'machine.container.started': [],
  'machine.container.exited': [],
  'machine.container.failedToStart': [],
  'machine.container.restarting': [],
  'machine.container.restarted': [],
  'machine.container.lost': [],
  'machine.container.reasonChanged': [],
  'machine.container.replaced': [],
  'machine.container.exitedAgain': [],
  // the panel's drawing splits Running by readiness (components/panel/machines.ts)
  'machine.container.startedUnready': [],
  'machine.container.becameReady': [],
  'machine.container.becameUnready': [],
  'machine.container.stillUnready': [],
  'machine.podPhase.started': [],
  'machine.podPhase.succeededEarly': [],
  'machine.podPhase.failedEarly': [],
  'machine.podPhase.succeeded': [],
  'machine.podPhase.failed': [],
  'machine.podPhase.reinitializing': [],
  'machine.nodeReady.notReady': [],
  'machine.nodeReady.ready': [],
  'machine.nodeReady.lost': [],
  'machine.nodeReady.lostWhileNotReady': [],
  'machine.nodeReady.back': [],
  'machine.nodeReady.backNotReady': [],
} as const satisfies Record<string, readonly string[]>;

export type WhyId = keyof typeof WHY;
export type WhyParams<I extends WhyId> = {
  readonly [K in (typeof WHY)[I][number]]: ExplanationParam;
};
export type WhyInputs = NonNullable<Explanation['inputs']>;

/** Builds an Explanation whose params are checked against the WHY table at compile time. */
export function why<I extends WhyId>(
  id: I,
  params: WhyParams<I>,
  rule: string,
  inputs?: WhyInputs,
): Explanation {
  const keys = Object.keys(params);
  return {
    id,
    ...(keys.length > 0 ? { params } : {}),
    rule,
    ...(inputs ? { inputs } : {}),
  };
}
