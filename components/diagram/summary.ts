/**
 * A node card zoomed out to a summary: its name, a health bar, and pods counted by state,
 * sized in screen pixels (counter-scaled by the zoom) and shrunk only as far as the card's
 * on-screen width demands. Pure geometry, shared by the SVG scene and the canvas painter.
 */
import { TONES, type Tone } from '@/components/visual/palette';
import type { NodeLayout } from './layout';

export interface SummaryLayout {
  /** Layout units per design pixel: draw design-pixel content under `scale(s)`. */
  s: number;
  origin: { x: number; y: number };
  /** Design-pixel positions, relative to `origin`. */
  conditionsY: number | undefined;
  bar: { y: number; w: number; h: number; segments: { tone: Tone; x: number; w: number }[] };
  totalY: number;
  counts: { tone: Tone; count: number; x: number; y: number }[];
}

const PAD = 8;
const LINE = 16;

export function summaryLayout(
  node: NodeLayout,
  k: number,
  unhealthyConditions: number,
): SummaryLayout {
  const onScreenW = node.w * k;
  // Full size when the card is wide enough for a name and a few counts; smaller, down to a
  // floor, when many nodes share the screen.
  const f = Math.min(1, Math.max(0.55, (onScreenW - 12) / 110));
  const s = f / Math.max(k, 1e-6);
  // A card smaller on screen than its padding (mid-resize, or zoomed far out) has no room at all.
  const w = Math.max(0, node.w / s - 2 * PAD);
  const h = Math.max(0, node.h / s - 2 * PAD);
  const total = TONES.reduce((n, t) => n + node.counts[t], 0);
  const conditionsY = unhealthyConditions > 0 ? 31 : undefined;
  const barY = unhealthyConditions > 0 ? 38 : 22;
  let x = 0;
  const segments = TONES.filter((t) => node.counts[t] > 0).map((tone) => {
    const sw = total > 0 ? (node.counts[tone] / total) * w : 0;
    const seg = { tone, x, w: sw };
    x += sw;
    return seg;
  });
  const totalY = barY + 8 + 16;
  const present = TONES.filter((t) => node.counts[t] > 0);
  // Counts in a row when the card is wide, else one per line while the card has room.
  const perRow = Math.max(1, Math.floor(w / 52));
  const counts = present
    .map((tone, i) => ({
      tone,
      count: node.counts[tone],
      x: (i % perRow) * 52,
      y: totalY + 6 + (Math.floor(i / perRow) + 1) * LINE - 4,
    }))
    .filter((c) => c.y <= h);
  return {
    s,
    origin: { x: node.x + PAD * s, y: node.y + PAD * s },
    conditionsY,
    bar: { y: barY, w, h: 8, segments },
    totalY,
    counts,
  };
}
