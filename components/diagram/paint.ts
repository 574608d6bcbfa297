/**
 * The canvas painter for large clusters: the same layout and palette as the SVG scene, drawn
 * with culling (only what is on screen) and the same level of detail. No DOM, no React; the
 * context is passed in, so it runs against any 2D context.
 */
import { TONE_COLOR, TONE_ICON, TONES, type Tone } from '@/components/visual/palette';
import type { ClusterLayout, Detail, NodeLayout, PodLayout } from './layout';
import { summaryLayout } from './summary';

export interface PaintOptions {
  width: number;
  height: number;
  transform: { x: number; y: number; k: number };
  detail: Detail;
  selected: string | undefined;
  dpr: number;
  /** "98 pods" in the reader's language. */
  summaryText: (count: number) => string;
  /** Resolved CSS colours (the canvas cannot read custom properties). */
  colors: {
    card: string;
    cardBorder: string;
    tile: string;
    text: string;
    muted: string;
    selection: string;
  };
}

type Ctx = Pick<
  CanvasRenderingContext2D,
  | 'setTransform'
  | 'clearRect'
  | 'fillRect'
  | 'strokeRect'
  | 'beginPath'
  | 'roundRect'
  | 'fill'
  | 'stroke'
  | 'fillText'
  | 'save'
  | 'restore'
  | 'translate'
  | 'scale'
  | 'setLineDash'
> & {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
};

/** Parsed icon paths, once per icon rather than per glyph per frame. */
const paths = new Map<string, Path2D>();
function iconPath(d: string): Path2D {
  let p = paths.get(d);
  if (!p) {
    p = new Path2D(d);
    paths.set(d, p);
  }
  return p;
}

function glyph(ctx: Ctx, tone: Tone, x: number, y: number, size: number): void {
  const icon = TONE_ICON[tone];
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(size / 12, size / 12);
  const path = iconPath(icon.d);
  ctx.lineWidth = 1.7;
  ctx.strokeStyle = TONE_COLOR[tone];
  ctx.fillStyle = TONE_COLOR[tone];
  (ctx as unknown as CanvasRenderingContext2D).stroke(path);
  if (icon.filled) (ctx as unknown as CanvasRenderingContext2D).fill(path);
  ctx.restore();
}

const visible = (b: { x: number; y: number; w: number; h: number }, o: PaintOptions) => {
  const { x, y, k } = o.transform;
  return (
    b.x * k + x < o.width &&
    (b.x + b.w) * k + x > 0 &&
    b.y * k + y < o.height &&
    (b.y + b.h) * k + y > 0
  );
};

function paintPod(ctx: Ctx, pod: PodLayout, o: PaintOptions): void {
  ctx.beginPath();
  ctx.roundRect(pod.x, pod.y, pod.w, pod.h, 7);
  ctx.fillStyle = o.colors.tile;
  ctx.fill();
  ctx.lineWidth = pod.id === o.selected ? 3 : 1.5;
  ctx.strokeStyle = pod.id === o.selected ? o.colors.selection : TONE_COLOR[pod.tone];
  ctx.stroke();
  ctx.fillStyle = TONE_COLOR[pod.tone];
  ctx.fillRect(pod.x, pod.y + 6, 3.5, pod.h - 12);
  if (o.detail !== 'full') return;
  glyph(ctx, pod.tone, pod.x + 9, pod.y + 8, 12);
  ctx.fillStyle = o.colors.text;
  ctx.font = '600 11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(pod.label, pod.x + 26, pod.y + 18);
  for (const pill of pod.pills) {
    ctx.beginPath();
    ctx.roundRect(pill.x, pill.y, pill.w, pill.h, 4);
    ctx.strokeStyle = pill.id === o.selected ? o.colors.selection : TONE_COLOR[pill.tone];
    ctx.lineWidth = pill.id === o.selected ? 2.5 : 1;
    // Running, not ready: dashed, as in the SVG scene.
    const unready = pill.readiness === 'notready' || pill.readiness === 'notstarted';
    ctx.setLineDash(unready && pill.id !== o.selected ? [3, 2] : []);
    ctx.stroke();
    glyph(ctx, pill.tone, pill.x + 4, pill.y + 3, 12);
    if (pill.label) {
      ctx.fillStyle = o.colors.text;
      ctx.font = '10px system-ui, sans-serif';
      ctx.fillText(pill.label, pill.x + 19, pill.y + 12.6);
    }
  }
}

function paintSummary(ctx: Ctx, node: NodeLayout, o: PaintOptions): void {
  const unhealthy = node.node.conditions.filter((c) =>
    c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False',
  );
  const l = summaryLayout(node, o.transform.k, unhealthy.length);
  ctx.save();
  ctx.translate(l.origin.x, l.origin.y);
  ctx.scale(l.s, l.s);
  glyph(ctx, node.tone, 0, 1, 13);
  ctx.fillStyle = o.colors.text;
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(node.id, 18, 12);
  if (l.conditionsY !== undefined) {
    ctx.fillStyle = TONE_COLOR.failed;
    ctx.font = '10px system-ui, sans-serif';
    ctx.fillText(unhealthy.map((c) => `${c.type}=${c.status}`).join(' '), 0, l.conditionsY);
  }
  for (const seg of l.bar.segments) {
    ctx.fillStyle = TONE_COLOR[seg.tone];
    ctx.fillRect(seg.x, l.bar.y, seg.w, l.bar.h);
  }
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = o.colors.text;
  ctx.fillText(o.summaryText(TONES.reduce((n, t) => n + node.counts[t], 0)), 0, l.totalY);
  for (const c of l.counts) {
    glyph(ctx, c.tone, c.x, c.y - 10, 11);
    ctx.fillStyle = o.colors.text;
    ctx.fillText(String(c.count), c.x + 15, c.y);
  }
  ctx.restore();
}

export function paintCluster(
  ctx: Ctx,
  layout: ClusterLayout,
  o: PaintOptions,
): { drawnPods: number } {
  ctx.setTransform(o.dpr, 0, 0, o.dpr, 0, 0);
  ctx.clearRect(0, 0, o.width, o.height);
  ctx.translate(o.transform.x, o.transform.y);
  ctx.scale(o.transform.k, o.transform.k);
  let drawnPods = 0;
  for (const node of layout.nodes) {
    if (!visible(node, o)) continue;
    ctx.beginPath();
    ctx.roundRect(node.x, node.y, node.w, node.h, 12);
    ctx.fillStyle = o.colors.card;
    ctx.fill();
    ctx.lineWidth = node.id === o.selected ? 4 / o.transform.k : 1;
    ctx.strokeStyle = node.id === o.selected ? o.colors.selection : o.colors.cardBorder;
    ctx.stroke();
    ctx.fillStyle = TONE_COLOR[node.tone];
    ctx.fillRect(node.x, node.y, node.w, 4);
    if (o.detail === 'summary') {
      paintSummary(ctx, node, o);
      continue;
    }
    glyph(ctx, node.tone, node.x + 10, node.y + 11, 13);
    ctx.fillStyle = o.colors.text;
    ctx.font = '600 13px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText(node.id, node.x + 29, node.y + 22);
    for (const pod of node.pods) {
      if (!visible(pod, o)) continue;
      paintPod(ctx, pod, o);
      drawnPods++;
    }
  }
  return { drawnPods };
}
