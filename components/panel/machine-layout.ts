/**
 * Where a state machine's states sit and the curves its edges follow. States are hand-placed
 * on a unit grid per machine (readable shapes: a triangle, a fork); edges are quadratic curves
 * bent to their left, so A→B and B→A never overlap and each has room for its label.
 */
import type { Machine, MachineId } from './machines';

export interface StateBox {
  id: string;
  cx: number;
  cy: number;
  w: number;
  h: number;
}

export interface EdgePath {
  key: string;
  from: string;
  to: string;
  d: string;
  /** Midpoint of the curve: where the label and the arrow's travel are centred. */
  mx: number;
  my: number;
}

export interface MachineLayout {
  width: number;
  height: number;
  states: StateBox[];
  edges: EdgePath[];
}

/** Positions in [0,1]² per machine. */
const PLACES: Record<MachineId, Record<string, [number, number]>> = {
  container: { waiting: [0.13, 0.8], running: [0.5, 0.2], terminated: [0.87, 0.8] },
  podPhase: {
    Pending: [0.12, 0.5],
    Running: [0.46, 0.5],
    Succeeded: [0.86, 0.14],
    Failed: [0.86, 0.86],
  },
  nodeReady: { True: [0.5, 0.2], False: [0.13, 0.8], Unknown: [0.87, 0.8] },
};

/**
 * The container machine with Running split by readiness: a square — not ready above waiting
 * (where a probed container arrives), ready above terminated.
 */
const READINESS_PLACES: Record<string, [number, number]> = {
  waiting: [0.13, 0.8],
  unready: [0.27, 0.15],
  running: [0.86, 0.15],
  terminated: [0.87, 0.8],
};

const STATE_H = 26;
const charW = 7.6;

/** Estimated width of a label: CJK characters take about two Latin ones. */
const labelWidth = (label: string) =>
  [...label].reduce((w, ch) => w + (/[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 1.7 : 1), 0) * charW;

/** Where the segment from the centre of `b` towards (tx, ty) leaves b's rectangle. */
function exitPoint(b: StateBox, tx: number, ty: number): [number, number] {
  const dx = tx - b.cx;
  const dy = ty - b.cy;
  if (dx === 0 && dy === 0) return [b.cx, b.cy];
  const sx = dx !== 0 ? b.w / 2 / Math.abs(dx) : Infinity;
  const sy = dy !== 0 ? b.h / 2 / Math.abs(dy) : Infinity;
  const s = Math.min(sx, sy);
  return [b.cx + dx * s, b.cy + dy * s];
}

const r = (n: number) => Math.round(n * 10) / 10;

export function layoutMachine(machine: Machine, width: number, height: number): MachineLayout {
  const places = machine.readiness ? READINESS_PLACES : PLACES[machine.id];
  const pad = 20;
  const states: StateBox[] = machine.states.map((s) => {
    const [ux, uy] = places[s.id] ?? [0.5, 0.5];
    return {
      id: s.id,
      cx: pad + ux * (width - 2 * pad),
      cy: pad + uy * (height - 2 * pad),
      w: Math.max(64, labelWidth(s.label) + 30),
      h: STATE_H,
    };
  });
  const byId = new Map(states.map((s) => [s.id, s]));
  const edges: EdgePath[] = [];
  for (const e of machine.edges) {
    const a = byId.get(e.from);
    const b = byId.get(e.to);
    if (!a || !b) continue;
    if (a === b) {
      // A self-edge (same state, new reason or attempt): a loop on the side away from the centre.
      const up = a.cy < height / 2;
      const y0 = up ? a.cy - a.h / 2 : a.cy + a.h / 2;
      const dy = up ? -24 : 24;
      const d = `M${r(a.cx - 12)} ${r(y0)} C${r(a.cx - 30)} ${r(y0 + dy)} ${r(a.cx + 30)} ${r(y0 + dy)} ${r(a.cx + 12)} ${r(y0)}`;
      edges.push({
        key: `${e.from}->${e.to}`,
        from: e.from,
        to: e.to,
        d,
        mx: a.cx,
        my: y0 + dy * 0.75,
      });
      continue;
    }
    const dx = b.cx - a.cx;
    const dy = b.cy - a.cy;
    const len = Math.hypot(dx, dy) || 1;
    // Bend to the left of the direction of travel, in proportion to the distance.
    const bend = Math.min(34, len * 0.22);
    const qx = (a.cx + b.cx) / 2 + (dy / len) * bend;
    const qy = (a.cy + b.cy) / 2 - (dx / len) * bend;
    const [x1, y1] = exitPoint(a, qx, qy);
    const [x2, y2] = exitPoint(b, qx, qy);
    const mx = 0.25 * x1 + 0.5 * qx + 0.25 * x2;
    const my = 0.25 * y1 + 0.5 * qy + 0.25 * y2;
    edges.push({
      key: `${e.from}->${e.to}`,
      from: e.from,
      to: e.to,
      d: `M${r(x1)} ${r(y1)} Q${r(qx)} ${r(qy)} ${r(x2)} ${r(y2)}`,
      mx,
      my,
    });
  }
  return { width, height, states, edges };
}
