/**
 * What deserves a look first, for the panel's "Start here" list: nodes that are not Ready, then
 * containers that are failing (crash loops first), then pods that failed or are stuck Pending.
 */
import type { ClusterState } from '@/lib/timeline/state';
import {
  containerDataId,
  containerReason,
  containerTone,
  nodeState,
  nodeTone,
  podContainers,
  type Layer,
} from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';

export interface Attention {
  id: string;
  layer: Layer;
  tone: Tone;
  /** node name, `namespace/pod`, or `namespace/pod › container`. */
  title: string;
  reason: string;
  node: string;
  rank: number;
}

const RANK: Record<string, number> = {
  CrashLoopBackOff: 1,
  OOMKilled: 2,
  ImagePullBackOff: 3,
  ErrImagePull: 3,
};

export function attentionList(state: ClusterState, limit = 8): Attention[] {
  const out: Attention[] = [];
  for (const node of Object.values(state.nodes)) {
    if (nodeState(node) !== 'ready') {
      const ready = node.conditions.find((c) => c.type === 'Ready');
      out.push({
        id: node.name,
        layer: 'node',
        tone: nodeTone(node),
        title: node.name,
        reason: ready?.reason ?? `Ready=${ready?.status ?? 'Unknown'}`,
        node: node.name,
        rank: 0,
      });
    }
    for (const pod of Object.values(node.pods)) {
      const name = `${pod.namespace}/${pod.name}`;
      let flagged = false;
      for (const c of podContainers(pod)) {
        const lastOom = c.status?.lastState?.terminated?.reason === 'OOMKilled';
        if (containerTone(c.status) !== 'failed' && !lastOom) continue;
        flagged = true;
        const reason = containerReason(c.status) ?? (lastOom ? 'OOMKilled' : '');
        out.push({
          id: containerDataId(pod.uid, c.name),
          layer: 'container',
          tone: containerTone(c.status) === 'failed' ? 'failed' : 'pending',
          title: `${name} › ${c.name}`,
          reason: lastOom && reason !== 'OOMKilled' ? `${reason} (OOMKilled)` : reason,
          node: node.name,
          rank: RANK[lastOom ? 'OOMKilled' : reason] ?? 4,
        });
      }
      if (flagged) continue;
      if (pod.status.phase === 'Failed' || pod.status.phase === 'Pending') {
        out.push({
          id: pod.uid,
          layer: 'pod',
          tone: pod.status.phase === 'Failed' ? 'failed' : 'pending',
          title: name,
          reason: pod.status.reason ?? pod.status.phase,
          node: node.name,
          rank: pod.status.phase === 'Failed' ? 5 : 6,
        });
      }
    }
  }
  return out.sort((a, b) => a.rank - b.rank || a.title.localeCompare(b.title)).slice(0, limit);
}
