/**
 * The cluster diagram's geometry, computed once per state and viewport, drawn by whichever
 * layer owns the DOM (SVG below the canvas threshold, canvas above it). Pure: no DOM, no React.
 *
 * A node is a card (header with its condition pills, then a grid of pod slots); a pod is a tile
 * (name row, then a row of container pills: init containers, a divider, sidecars, app
 * containers). Every node card has the same width; the numbers of node columns and pod columns
 * are chosen together so the whole cluster fits the viewport as large as possible.
 */
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import {
  nodeState,
  nodeTone,
  podNeedsAttention,
  podState,
  podTone,
} from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';
import { GEOMETRY, type Box } from './geometry';
import {
  FONTS,
  layoutConditionPills,
  layoutPills,
  truncate,
  type ConditionPill,
  type PillLayout,
} from './pills';
import type { SlotBook } from './slots';

export { GEOMETRY, type Box } from './geometry';
export {
  FONTS,
  NODE_CONDITIONS,
  layoutConditionPills,
  layoutPills,
  type ConditionPill,
  type PillLayout,
} from './pills';

export type PodBadge = 'attention' | 'drift' | 'eviction' | 'deleting';

export interface PodLayout extends Box {
  id: string;
  pod: PodView;
  state: string;
  tone: Tone;
  attention: boolean;
  /** Small round markers at the tile's top right, right to left. */
  badges: PodBadge[];
  /** The name, cut by estimate to `labelMax` (the drawing refines it with the page's font). */
  label: string;
  /** The room for the name between the state icon and the badges, in layout units. */
  labelMax: number;
  pills: PillLayout[];
  /** x of the line between plain init containers and the rest, if both exist. */
  dividerX?: number;
  /** Containers that did not fit. */
  hidden: number;
}

export interface NodeLayout extends Box {
  id: string;
  node: NodeView;
  state: 'ready' | 'notready' | 'unknown';
  tone: Tone;
  conditions: ConditionPill[];
  pods: PodLayout[];
  /** Pods by tone, for the summary drawn when zoomed out. */
  counts: Record<Tone, number>;
}

export interface ClusterLayout {
  width: number;
  height: number;
  nodes: NodeLayout[];
  podCols: number;
  nodeCols: number;
  podCount: number;
}

export interface Viewport {
  width: number;
  height: number;
}

function nodeSize(podCols: number, slots: number): { w: number; h: number } {
  const g = GEOMETRY;
  const rows = Math.max(1, Math.ceil(slots / podCols));
  return {
    w: podCols * g.podW + (podCols - 1) * g.podGap + 2 * g.nodePad,
    h: g.nodeHeader + rows * g.podH + (rows - 1) * g.podGap + g.nodePad,
  };
}

/** Chooses pod columns per node and node columns so the cluster fits the viewport largest. */
export function chooseGrid(
  slotCounts: readonly number[],
  vp: Viewport,
): { podCols: number; nodeCols: number; scale: number } {
  const n = Math.max(1, slotCounts.length);
  const maxSlots = Math.max(1, ...slotCounts);
  let best = { podCols: 1, nodeCols: 1, scale: 0 };
  for (let podCols = 1; podCols <= Math.min(12, maxSlots); podCols++) {
    for (let nodeCols = 1; nodeCols <= n; nodeCols++) {
      const rows = Math.ceil(n / nodeCols);
      const w = nodeSize(podCols, maxSlots).w;
      let height = 0;
      for (let r = 0; r < rows; r++) {
        const inRow = slotCounts.slice(r * nodeCols, (r + 1) * nodeCols);
        height += Math.max(...inRow.map((s) => nodeSize(podCols, s).h));
      }
      height += (rows - 1) * GEOMETRY.nodeGap;
      const width = nodeCols * w + (nodeCols - 1) * GEOMETRY.nodeGap;
      const scale = Math.min(vp.width / width, vp.height / height);
      // Prefer the larger scale; on a near tie, the squarer pod grid.
      if (scale > best.scale * 1.01) best = { podCols, nodeCols, scale };
    }
  }
  return best;
}

export const BADGE_STEP = 17;

/**
 * The name starts after the state icon (26) and gives way to the badges: the leftmost badge's
 * circle starts 17 per badge from the right edge, and the name keeps 4 clear of it (8 of the
 * edge without badges).
 */
export function podLabelMax(w: number, badges: number): number {
  return w - 26 - (badges > 0 ? badges * BADGE_STEP + 4 : 8);
}

function podBadges(pod: PodView, attention: boolean): PodBadge[] {
  const out: PodBadge[] = [];
  if (attention) out.push('attention');
  if (pod.drift && pod.drift.length > 0) out.push('drift');
  if (pod.evictionDueAt !== undefined) out.push('eviction');
  if (pod.deletionTimestamp !== undefined) out.push('deleting');
  return out;
}

/**
 * Pod layouts by pod: the reducer shares unchanged pods between states, so a new state re-lays
 * out only the pods that changed (a 10,000-pod cluster re-renders in milliseconds, not a
 * quarter of a second). Transparent: the result is the same as computing it afresh.
 */
const podCache = new WeakMap<PodView, PodLayout>();

function cachedPod(pod: PodView, box: Box): PodLayout {
  const hit = podCache.get(pod);
  if (hit && hit.x === box.x && hit.y === box.y && hit.w === box.w && hit.h === box.h) return hit;
  const fresh = layoutPod(pod, box);
  podCache.set(pod, fresh);
  return fresh;
}

function layoutPod(pod: PodView, box: Box): PodLayout {
  const attention = podNeedsAttention(pod);
  const badges = podBadges(pod, attention);
  return {
    ...box,
    id: pod.uid,
    pod,
    state: podState(pod),
    tone: podTone(pod),
    attention,
    badges,
    label: truncate(pod.name, podLabelMax(box.w, badges.length), FONTS.pod),
    labelMax: podLabelMax(box.w, badges.length),
    ...layoutPills(pod, box),
  };
}

const emptyCounts = (): Record<Tone, number> => ({
  ok: 0,
  pending: 0,
  done: 0,
  failed: 0,
  unknown: 0,
});

/**
 * The grid for the last slot counts and viewport: it depends on nothing else, and a status
 * change moves no slot, so a stream of updates reuses it (the search is ~10⁵ steps at 91 nodes).
 */
let lastGrid: { key: string; grid: ReturnType<typeof chooseGrid> } | undefined;

function cachedGrid(counts: readonly number[], vp: Viewport): ReturnType<typeof chooseGrid> {
  const key = `${vp.width}x${vp.height}:${counts.join(',')}`;
  if (lastGrid?.key !== key) lastGrid = { key, grid: chooseGrid(counts, vp) };
  return lastGrid.grid;
}

/**
 * Node layouts by node, like pods: a node whose view, slots and box are the same as last time
 * keeps its layout (the reducer shares a node until one of its pods changes), so an update
 * re-lays out the nodes it touched and no others. Transparent, like the pod cache.
 */
interface NodeKey {
  slots: ReadonlyMap<string, number> | undefined;
  podCols: number;
  x: number;
  y: number;
  w: number;
  h: number;
}
const nodeCache = new WeakMap<NodeView, { key: NodeKey; layout: NodeLayout }>();

function layoutNode(name: string, node: NodeView, k: NodeKey): NodeLayout {
  const hit = nodeCache.get(node);
  if (
    hit &&
    hit.layout.id === name &&
    hit.key.slots === k.slots &&
    hit.key.podCols === k.podCols &&
    hit.key.x === k.x &&
    hit.key.y === k.y &&
    hit.key.w === k.w &&
    hit.key.h === k.h
  )
    return hit.layout;
  const g = GEOMETRY;
  const { x, y, podCols } = k;
  const tally = emptyCounts();
  const pods: PodLayout[] = [];
  for (const pod of Object.values(node.pods)) {
    const slot = k.slots?.get(pod.uid);
    if (slot === undefined) continue;
    const px = x + g.nodePad + (slot % podCols) * (g.podW + g.podGap);
    const py = y + g.nodeHeader + Math.floor(slot / podCols) * (g.podH + g.podGap);
    const p = cachedPod(pod, { x: px, y: py, w: g.podW, h: g.podH });
    tally[p.tone]++;
    pods.push(p);
  }
  pods.sort((a, b) => a.y - b.y || a.x - b.x);
  const layout: NodeLayout = {
    id: name,
    node,
    state: nodeState(node),
    tone: nodeTone(node),
    conditions: layoutConditionPills(node.conditions, x + g.nodePad, y + 31, k.w - 2 * g.nodePad),
    pods,
    counts: tally,
    x,
    y,
    w: k.w,
    h: k.h,
  };
  nodeCache.set(node, { key: k, layout });
  return layout;
}

function slotCountOf(slots: ReadonlyMap<string, number> | undefined): number {
  let max = -1;
  if (slots) for (const v of slots.values()) if (v > max) max = v;
  return max < 0 ? 1 : max + 1;
}

export function layoutCluster(state: ClusterState, slots: SlotBook, vp: Viewport): ClusterLayout {
  const g = GEOMETRY;
  const names = Object.keys(state.nodes).sort((a, b) => a.localeCompare(b));
  const counts = names.map((name) => slotCountOf(slots.get(name)));
  const { podCols, nodeCols } = cachedGrid(counts, vp);
  const nodeW = nodeSize(podCols, Math.max(1, ...counts)).w;
  const nodes: NodeLayout[] = [];
  let y = 0;
  let podCount = 0;
  for (let row = 0; row * nodeCols < names.length; row++) {
    const rowNames = names.slice(row * nodeCols, (row + 1) * nodeCols);
    const rowCounts = counts.slice(row * nodeCols, (row + 1) * nodeCols);
    const rowH = Math.max(...rowCounts.map((c) => nodeSize(podCols, c).h));
    rowNames.forEach((name, col) => {
      const node = state.nodes[name];
      if (!node) return;
      const x = col * (nodeW + g.nodeGap);
      const n = layoutNode(name, node, {
        slots: slots.get(name),
        podCols,
        x,
        y,
        w: nodeW,
        h: rowH,
      });
      podCount += n.pods.length;
      nodes.push(n);
    });
    y += rowH + g.nodeGap;
  }
  const width = Math.min(names.length, nodeCols) * (nodeW + g.nodeGap) - g.nodeGap;
  return {
    width: Math.max(width, 0),
    height: Math.max(y - g.nodeGap, 0),
    nodes,
    podCols,
    nodeCols,
    podCount,
  };
}

/** Level of detail from the on-screen size of a pod tile. */
export type Detail = 'summary' | 'pods' | 'full';

export function detailAt(scale: number): Detail {
  const podOnScreen = GEOMETRY.podW * scale;
  if (podOnScreen < 44) return 'summary';
  if (podOnScreen < 110) return 'pods';
  return 'full';
}

/** The transform that fits the layout in the viewport: centred across, from the top down. */
/** The console never blows a small cluster up beyond this: big tiles read as a different thing. */
export const DEFAULT_MAX_FIT_ZOOM = 1.25;

export function fitTransform(
  layout: Pick<ClusterLayout, 'width' | 'height'>,
  vp: Viewport,
  margin = 16,
  /** The largest zoom a fit may use (a walkthrough's single node can be drawn larger). */
  maxZoom = DEFAULT_MAX_FIT_ZOOM,
): { x: number; y: number; k: number } {
  if (layout.width <= 0 || layout.height <= 0) return { x: margin, y: margin, k: 1 };
  const k = Math.min(
    (vp.width - 2 * margin) / layout.width,
    (vp.height - 2 * margin) / layout.height,
    maxZoom,
  );
  return { k, x: (vp.width - layout.width * k) / 2, y: margin };
}
