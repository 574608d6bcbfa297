/**
 * The timeline's lanes, like tracks in a video editor: one per node, then one per pod on it,
 * each with a marker for every transition in the window, coloured by the palette. When there
 * are too many pods, the lanes that matter stay (the selection's, then troubled pods').
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { conditionTone, containerTone } from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';

export interface Marker {
  seq: number;
  t: number;
  tone: Tone;
  /** What to select when the marker is clicked. */
  entity: string;
}

export interface Lane {
  id: string;
  layer: 'node' | 'pod';
  label: string;
  node: string;
  markers: Marker[];
}

const phaseTone = (p: string | undefined): Tone =>
  p === 'Running'
    ? 'ok'
    : p === 'Pending'
      ? 'pending'
      : p === 'Succeeded'
        ? 'done'
        : p === 'Failed'
          ? 'failed'
          : 'unknown';

/** The marker an event draws, if it is a transition worth a mark. */
export function markerOf(e: TimelineEvent): (Marker & { lane: string }) | undefined {
  switch (e.kind) {
    case 'container':
      if (e.type !== 'ContainerStateChanged') return undefined;
      return {
        seq: e.seq,
        t: e.t,
        tone: containerTone(e.status),
        entity: `${e.podUid}/${e.name}`,
        lane: e.podUid,
      };
    case 'pod':
      if (e.type === 'PodPhaseChanged')
        return { seq: e.seq, t: e.t, tone: phaseTone(e.phase), entity: e.podUid, lane: e.podUid };
      if (e.type === 'PodAdded')
        return {
          seq: e.seq,
          t: e.t,
          tone: phaseTone(e.pod?.status.phase),
          entity: e.podUid,
          lane: e.podUid,
        };
      return undefined;
    case 'node':
      if (e.type !== 'NodeConditionChanged' || !e.condition) return undefined;
      return { seq: e.seq, t: e.t, tone: conditionTone(e.condition), entity: e.node, lane: e.node };
    case 'cri':
      if (e.type !== 'RelistFailed' && e.type !== 'RelistRecovered') return undefined;
      return {
        seq: e.seq,
        t: e.t,
        tone: e.type === 'RelistFailed' ? 'failed' : 'ok',
        entity: e.node,
        lane: e.node,
      };
    case 'k8s':
      if (e.eventType !== 'Warning') return undefined;
      return {
        seq: e.seq,
        t: e.t,
        tone: 'failed',
        entity: e.podUid ?? e.node,
        lane: e.podUid ?? e.node,
      };
  }
}

export function buildLanes(
  events: readonly TimelineEvent[],
  window: { from: number; to: number },
  names: ReadonlyMap<string, string>,
  nodes: readonly string[],
  opts: { maxLanes: number; selectedPod?: string; currentPods?: ReadonlyMap<string, string> },
): Lane[] {
  const nodeLanes = new Map<string, Lane>();
  const podLanes = new Map<string, Lane>();
  const lane = (id: string, layer: 'node' | 'pod', node: string, label: string) => {
    const map = layer === 'node' ? nodeLanes : podLanes;
    let l = map.get(id);
    if (!l) {
      l = { id, layer, label, node, markers: [] };
      map.set(id, l);
    }
    return l;
  };
  for (const n of nodes) lane(n, 'node', n, n);
  // Node lanes come first: when the nodes alone fill the lanes, no pod lane can be shown, so
  // none is built (a 10,000-pod cluster would otherwise build and rank 10,000 lanes per update).
  const noPods = nodeLanes.size >= opts.maxLanes;
  // Pods that exist now get a lane even without transitions in the window.
  if (!noPods)
    for (const [uid, node] of opts.currentPods ?? []) lane(uid, 'pod', node, names.get(uid) ?? uid);
  for (const e of events) {
    if (e.t < window.from || e.t > window.to) continue;
    if (noPods && (e.kind === 'container' || e.kind === 'pod')) continue;
    const m = markerOf(e);
    if (!m) continue;
    if (noPods && m.lane !== e.node) continue;
    const target =
      m.lane === e.node
        ? lane(e.node, 'node', e.node, e.node)
        : lane(m.lane, 'pod', e.node, names.get(m.lane) ?? m.lane);
    target.markers.push({ seq: m.seq, t: m.t, tone: m.tone, entity: m.entity });
  }
  let pods = [...podLanes.values()];
  const budget = Math.max(0, opts.maxLanes - nodeLanes.size);
  if (pods.length > budget) {
    const scores = new Map<Lane, number>();
    for (const l of pods) {
      let failed = 0;
      for (const m of l.markers) if (m.tone === 'failed') failed++;
      scores.set(l, (l.id === opts.selectedPod ? 1e9 : 0) + failed * 10 + l.markers.length);
    }
    const score = (l: Lane) => scores.get(l) ?? 0;
    const keep = new Set(
      [...pods]
        .sort((a, b) => score(b) - score(a))
        .slice(0, budget)
        .map((l) => l.id),
    );
    pods = pods.filter((l) => keep.has(l.id));
  }
  const byNode = new Map<string, Lane[]>();
  for (const p of pods) {
    const list = byNode.get(p.node);
    if (list) list.push(p);
    else byNode.set(p.node, [p]);
  }
  const out: Lane[] = [];
  for (const n of [...nodeLanes.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    out.push(n);
    out.push(...(byNode.get(n.id) ?? []).sort((a, b) => a.label.localeCompare(b.label)));
  }
  return out;
}
