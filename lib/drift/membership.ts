/**
 * Which pods each side has on a node. Runtime pods are keyed by the sandbox's
 * io.kubernetes.pod.uid label; API pods by that same uid (api.ts runtimeUid) and bound to the
 * node by spec.nodeName.
 * - orphan: the runtime has a sandbox the API server does not have, or binds to another node;
 * - missing: the API server binds a non-terminal pod to the node and the runtime has no sandbox.
 *   Terminal pods are skipped: the kubelet may already have garbage-collected their sandboxes.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { explain } from '../kubelet/explanation';
import type { NodeView, PodView } from '../timeline/state';
import { podKey, runtimeUid } from './api';
import type { CompareContext, Finding } from './finding';
import { isTerminalPhase, seconds, toMs } from './values';

/** True when the runtime's pod has no API counterpart on this node. */
export function isOrphan(view: PodView, api: V1Pod | undefined): boolean {
  const boundTo = api?.spec?.nodeName;
  return !api || (boundTo !== undefined && boundTo !== '' && boundTo !== view.node);
}

export function orphanFinding(view: PodView, api: V1Pod | undefined, ctx: CompareContext): Finding {
  const ref = { node: view.node, podUid: view.uid, pod: `${view.namespace}/${view.name}` };
  const boundTo = api?.spec?.nodeName;
  if (api && boundTo) {
    return {
      ...ref,
      kind: 'orphanSandbox',
      field: 'spec.nodeName',
      api: boundTo,
      runtime: view.node,
      toleranceMs: ctx.options.podToleranceMs,
      why: explain('drift.orphan.otherNode', { pod: ref.pod, apiNode: boundTo, node: view.node }),
    };
  }
  const running = [
    ...(view.status.containerStatuses ?? []),
    ...(view.status.initContainerStatuses ?? []),
  ].filter((s) => s.state?.running).length;
  const deletedAt = ctx.index.deletedPods[view.uid];
  return {
    ...ref,
    kind: 'orphanSandbox',
    field: 'metadata.uid',
    api: null,
    runtime: view.uid,
    // Deleted from the API: since then. Never in the API: since its first sandbox was created.
    since: deletedAt ?? view.createdAt,
    // Nothing running: a dead sandbox waiting for the kubelet's container GC is normal for a while.
    toleranceMs: running > 0 ? ctx.options.podToleranceMs : ctx.options.orphanGcWindowMs,
    why:
      deletedAt !== undefined
        ? explain('drift.orphan.deleted', {
            pod: ref.pod,
            lagSeconds: seconds(ctx.now - deletedAt),
            running,
          })
        : explain('drift.orphan.unknown', { pod: ref.pod, uid: view.uid, running }),
  };
}

export function missingPods(node: NodeView, ctx: CompareContext): Finding[] {
  const out: Finding[] = [];
  for (const pod of ctx.index.podsByNode.get(node.name) ?? []) {
    const uid = runtimeUid(pod);
    if (!uid || node.pods[uid] || isTerminalPhase(pod.status?.phase)) continue;
    const deleting = toMs(pod.metadata?.deletionTimestamp);
    const scheduled = toMs(
      pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime,
    );
    const since = deleting ?? scheduled ?? toMs(pod.metadata?.creationTimestamp);
    const phase = pod.status?.phase ?? 'Pending';
    out.push({
      node: node.name,
      podUid: uid,
      pod: podKey(pod),
      kind: 'missingPod',
      field: 'spec.nodeName',
      api: phase,
      runtime: null,
      ...(since !== undefined ? { since } : {}),
      toleranceMs: ctx.options.podToleranceMs,
      why:
        deleting !== undefined
          ? explain('drift.missing.terminating', { pod: podKey(pod), node: node.name })
          : explain('drift.missing.notCreated', { pod: podKey(pod), node: node.name, phase }),
    });
  }
  return out;
}
