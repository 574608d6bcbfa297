/**
 * Keyboard movement between drawn entities: ←/→ to the previous/next sibling, ↓ into the first
 * child (node → pod → container), ↑ out to the parent, Home/End to the first/last sibling.
 */
import type { ClusterLayout } from './layout';

export type NavKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

export const isNavKey = (k: string): k is NavKey =>
  k === 'ArrowLeft' ||
  k === 'ArrowRight' ||
  k === 'ArrowUp' ||
  k === 'ArrowDown' ||
  k === 'Home' ||
  k === 'End';

interface Place {
  siblings: string[];
  index: number;
  parent?: string;
  children: string[];
}

function locate(layout: ClusterLayout, id: string): Place | undefined {
  const nodes = layout.nodes.map((n) => n.id);
  for (const [ni, node] of layout.nodes.entries()) {
    if (node.id === id) return { siblings: nodes, index: ni, children: node.pods.map((p) => p.id) };
    const pods = node.pods.map((p) => p.id);
    for (const [pi, pod] of node.pods.entries()) {
      const pills = pod.pills.map((c) => c.id);
      if (pod.id === id) return { siblings: pods, index: pi, parent: node.id, children: pills };
      const ci = pills.indexOf(id);
      if (ci >= 0) return { siblings: pills, index: ci, parent: pod.id, children: [] };
    }
  }
  return undefined;
}

/** The entity focus moves to; the first node when nothing had focus. */
export function navigate(
  layout: ClusterLayout,
  from: string | undefined,
  key: NavKey,
): string | undefined {
  const place = from ? locate(layout, from) : undefined;
  if (!place) return layout.nodes[0]?.id;
  const { siblings, index } = place;
  switch (key) {
    case 'ArrowLeft':
      return siblings[Math.max(0, index - 1)];
    case 'ArrowRight':
      return siblings[Math.min(siblings.length - 1, index + 1)];
    case 'Home':
      return siblings[0];
    case 'End':
      return siblings[siblings.length - 1];
    case 'ArrowUp':
      return place.parent ?? from;
    case 'ArrowDown':
      return place.children[0] ?? from;
  }
}
