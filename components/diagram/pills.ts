/**
 * The small things inside cards: a pod's container pills (plain init containers, a divider,
 * sidecars, app containers; widths shared out, labels truncated without measuring text) and a
 * node's condition pills. Pure geometry, part of the layout.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { NODE_CONDITION } from '@/lib/kubelet/node';
import type { PodView } from '@/lib/timeline/state';
import {
  conditionTone,
  containerDataId,
  containerReadiness,
  containerReason,
  containerState,
  containerTone,
  podContainers,
  type ContainerReadiness,
} from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';
import { GEOMETRY, type Box } from './geometry';
import { estimateWidth, fitText, type FontSpec } from './text-fit';

/**
 * The node conditions every card shows, in the order their pills are drawn: the kubelet's own
 * (pkg/kubelet/nodestatus/setters.go). Any other condition the node has (NetworkUnavailable,
 * which CNI plugins and the route controller write, seen through the API server) follows them.
 */
export const NODE_CONDITIONS = [
  NODE_CONDITION.Ready,
  NODE_CONDITION.MemoryPressure,
  NODE_CONDITION.DiskPressure,
  NODE_CONDITION.PIDPressure,
] as const;

export interface PillLayout extends Box {
  id: string;
  name: string;
  list: 'init' | 'regular';
  sidecar: boolean;
  status: V1ContainerStatus | undefined;
  state: 'waiting' | 'running' | 'terminated';
  reason: string | undefined;
  /** Running containers only: what the prober decided (see containerReadiness). */
  readiness: ContainerReadiness | undefined;
  tone: Tone;
  /** What the pill says: the name, and the restart count when it has restarted. */
  text: string;
  /** What fits inside the pill after the icon ('' = icon only), by estimate. */
  label: string;
  /** The room for the label, in layout units. */
  labelMax: number;
}

export interface ConditionPill extends Box {
  type: string;
  status: string;
  tone: Tone;
  /** For the "+n" pill: the conditions folded into it. */
  folded?: string[];
}

const COND_PILL = { h: 16, gap: 4, pad: 20, charW: 5.4 } as const;

/**
 * Condition pills for a node card header, left to right within `maxW`: Ready first, then any
 * condition that is not in its good state, then the healthy rest. What does not fit folds into
 * one "+n" pill that takes the tone of the worst condition it holds (so a node whose every
 * condition is Unknown still says so, inside its card); Ready is never folded.
 */
export function layoutConditionPills(
  conditions: readonly { type: string; status: string }[],
  x: number,
  y: number,
  maxW: number,
): ConditionPill[] {
  const shown: readonly string[] = NODE_CONDITIONS;
  const types = [
    ...NODE_CONDITIONS,
    ...conditions.map((c) => c.type).filter((type) => !shown.includes(type)),
  ];
  const all = types.map((type) => {
    const status = conditions.find((c) => c.type === type)?.status ?? 'Unknown';
    return { type, status, tone: conditionTone({ type, status }) };
  });
  const ordered = [
    ...all.filter((c) => c.type === 'Ready'),
    ...all.filter((c) => c.type !== 'Ready' && c.tone !== 'ok'),
    ...all.filter((c) => c.type !== 'Ready' && c.tone === 'ok'),
  ];
  const width = (text: string) => Math.round(text.length * COND_PILL.charW + COND_PILL.pad);
  const foldW = width('+9');
  const out: ConditionPill[] = [];
  let cx = x;
  for (const [i, c] of ordered.entries()) {
    const w = width(c.type);
    const rest = ordered.slice(i + 1);
    const room = x + maxW - cx - (rest.length > 0 ? foldW + COND_PILL.gap : 0);
    if (w > room && c.type !== 'Ready') {
      const rest = ordered.slice(i);
      const folded = rest.map((r) => r.type);
      out.push({
        type: `+${folded.length}`,
        status: '',
        tone: worstTone(rest.map((r) => r.tone)),
        folded,
        x: cx,
        y,
        w: foldW,
        h: COND_PILL.h,
      });
      break;
    }
    out.push({ ...c, x: cx, y, w, h: COND_PILL.h });
    cx += w + COND_PILL.gap;
  }
  return out;
}

/** Which tone a "+n" pill takes: the most alarming of those it folds. */
const TONE_SEVERITY: readonly Tone[] = ['failed', 'unknown', 'pending', 'done', 'ok'];
const worstTone = (tones: readonly Tone[]): Tone =>
  TONE_SEVERITY.find((t) => tones.includes(t)) ?? 'ok';

/** The fonts of the labels drawn inside the diagram (diagram.css, paint.ts). */
export const FONTS = {
  pod: { px: 11, bold: true },
  container: { px: 10 },
} as const satisfies Record<string, FontSpec>;

/** `text` cut to `width` by estimate (the drawing refines it with the page's font). */
export const truncate = (text: string, width: number, font: FontSpec = FONTS.container): string =>
  fitText(text, width, (s) => estimateWidth(s, font.px, font.bold));

export interface PodPills {
  pills: PillLayout[];
  /** x of the line between plain init containers and the rest, if both exist. */
  dividerX?: number;
  /** Containers that did not fit. */
  hidden: number;
}

/** The label starts after the icon (19) and keeps clear of the pill's right end (1). */
const PILL_LABEL_INSET = 20;

export function layoutPills(pod: PodView, box: Box): PodPills {
  const g = GEOMETRY;
  const entries = podContainers(pod);
  // Plain init containers first, then sidecars (init containers that keep running), then the rest.
  const plainInit = entries.filter((c) => c.list === 'init' && !c.sidecar);
  const rest = [
    ...entries.filter((c) => c.sidecar),
    ...entries.filter((c) => c.list === 'regular'),
  ];
  const ordered = [...plainInit, ...rest];
  const pad = 6;
  const avail = box.w - 2 * pad;
  const hasDivider = plainInit.length > 0 && rest.length > 0;
  const fixed = (hasDivider ? g.dividerW : 0) + Math.max(0, ordered.length - 1) * g.pillGap;
  let count = ordered.length;
  let w = count > 0 ? (avail - fixed) / count : 0;
  let hidden = 0;
  if (w < g.pillMinW) {
    // Keep room for a "+n" pill and show as many as fit at the minimum width.
    count = Math.max(
      1,
      Math.floor((avail - (hasDivider ? g.dividerW : 0) + g.pillGap) / (g.pillMinW + g.pillGap)) -
        1,
    );
    hidden = ordered.length - count;
    w = g.pillMinW;
  }
  w = Math.min(w, g.pillMaxW);
  const y = box.y + box.h - pad - g.pillH;
  let x = box.x + pad;
  const pills: PillLayout[] = [];
  let dividerX: number | undefined;
  ordered.slice(0, count).forEach((c, i) => {
    if (hasDivider && i === plainInit.length) {
      dividerX = x + (g.dividerW - g.pillGap) / 2;
      x += g.dividerW;
    }
    const restarts = c.status?.restartCount ?? 0;
    const text = restarts > 0 ? `${c.name} ↻${restarts}` : c.name;
    pills.push({
      id: containerDataId(pod.uid, c.name),
      name: c.name,
      list: c.list,
      sidecar: c.sidecar,
      status: c.status,
      state: containerState(c.status),
      reason: containerReason(c.status),
      readiness: containerReadiness(c.status),
      tone: containerTone(c.status),
      text,
      label: truncate(text, w - PILL_LABEL_INSET),
      labelMax: w - PILL_LABEL_INSET,
      x,
      y,
      w,
      h: g.pillH,
    });
    x += w + g.pillGap;
  });
  return { pills, hidden, ...(dividerX !== undefined ? { dividerX } : {}) };
}
