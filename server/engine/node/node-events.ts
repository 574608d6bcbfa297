/**
 * Node conditions now vs as recorded → NodeConditionChanged events. Pure.
 *
 * Like the API server's view, a condition is re-recorded when what it says changes, or when its
 * heartbeat is older than the kubelet's nodeStatusReportFrequency (5 min) and a newer one came —
 * not on every status update, which would fill the timeline with heartbeats.
 */
import type { V1NodeCondition } from '@kubernetes/client-node';
import type { Explanation } from '@/lib/kubelet/explanation';
import { KUBELET_DEFAULTS } from '@/lib/kubelet/timings';
import type { UnsequencedEvent } from '@/lib/timeline/events';
import type { NodeView } from '@/lib/timeline/state';

export const NODE_STATUS_REPORT_MS = KUBELET_DEFAULTS.nodeStatusReportFrequencyMs;

export function nodeEvents(
  view: NodeView,
  conditions: readonly V1NodeCondition[],
  why: Readonly<Record<string, Explanation>>,
  ctx: { t: number; node: string },
): UnsequencedEvent[] {
  const out: UnsequencedEvent[] = [];
  const before = new Map(view.conditions.map((c) => [c.type, c]));
  for (const c of conditions) {
    const old = before.get(c.type);
    const said =
      old && old.status === c.status && old.reason === c.reason && old.message === c.message;
    const heartbeat = old?.lastHeartbeatTime instanceof Date ? old.lastHeartbeatTime.getTime() : 0;
    const beat = c.lastHeartbeatTime instanceof Date ? c.lastHeartbeatTime.getTime() : 0;
    // An unchanged condition is re-recorded only for a new heartbeat (none comes from a silent
    // node: its Unknown conditions keep the last one heard).
    if (said && (beat <= heartbeat || ctx.t - heartbeat < NODE_STATUS_REPORT_MS)) continue;
    const w = why[c.type];
    out.push({
      kind: 'node',
      type: 'NodeConditionChanged',
      node: ctx.node,
      t: ctx.t,
      condition: c,
      ...(old ? { from: old.status } : {}),
      ...(w ? { why: w } : {}),
    });
  }
  return out;
}
