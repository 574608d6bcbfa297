/** Which entity is under a point of the layout (canvas mode has no DOM to ask). */
import type { Layer } from '@/components/data/entity';
import type { Box, ClusterLayout, Detail } from './layout';

const inside = (b: Box, x: number, y: number) =>
  x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;

export function hitTest(
  layout: ClusterLayout,
  x: number,
  y: number,
  detail: Detail = 'full',
): { layer: Layer; id: string } | undefined {
  for (const node of layout.nodes) {
    if (!inside(node, x, y)) continue;
    if (detail !== 'summary') {
      for (const pod of node.pods) {
        if (!inside(pod, x, y)) continue;
        if (detail === 'full') {
          const pill = pod.pills.find((p) => inside(p, x, y));
          if (pill) return { layer: 'container', id: pill.id };
        }
        return { layer: 'pod', id: pod.id };
      }
    }
    return { layer: 'node', id: node.id };
  }
  return undefined;
}
