/**
 * Where the console looks in time, as plain data: at the live edge, paused at a moment, or
 * playing from a moment at a speed. Pure functions of (cursor, wall clock, timeline edge), so
 * playback is tested without timers and a paused cursor never drifts.
 */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;
export const DEFAULT_SPEED = 1;

export type Cursor =
  | { mode: 'live' }
  | { mode: 'paused'; t: number }
  /** Playing: at wall-clock time `wall` the cursor was at `t`. */
  | { mode: 'playing'; t: number; wall: number };

export const LIVE: Cursor = { mode: 'live' };

export interface Edge {
  /** The earliest moment that can be shown. */
  from: number;
  /** The latest moment: now for a live source, the last event for a recording. */
  to: number;
}

export const clamp = (t: number, edge: Edge): number => Math.min(edge.to, Math.max(edge.from, t));

/** The moment the cursor shows at wall-clock time `wall`. */
export function cursorTime(c: Cursor, speed: number, wall: number, edge: Edge): number {
  switch (c.mode) {
    case 'live':
      return edge.to;
    case 'paused':
      return clamp(c.t, edge);
    case 'playing':
      return clamp(c.t + (wall - c.wall) * speed, edge);
  }
}

/**
 * Called on every frame while playing: reaching the edge joins live (live sources) or stops at
 * the end (recordings).
 */
export function tick(c: Cursor, speed: number, wall: number, edge: Edge, live: boolean): Cursor {
  if (c.mode !== 'playing') return c;
  const t = c.t + (wall - c.wall) * speed;
  if (t < edge.to) return c;
  return live ? LIVE : { mode: 'paused', t: edge.to };
}

export function play(c: Cursor, speed: number, wall: number, edge: Edge): Cursor {
  if (c.mode === 'playing') return c;
  const t = cursorTime(c, speed, wall, edge);
  // Play at the end of a recording starts it over, like a video player.
  const start = t >= edge.to ? edge.from : t;
  return { mode: 'playing', t: start, wall };
}

export function pause(c: Cursor, speed: number, wall: number, edge: Edge): Cursor {
  return { mode: 'paused', t: cursorTime(c, speed, wall, edge) };
}

/** Moves the cursor to `t`, still playing if it was. */
export function seek(c: Cursor, t: number, wall: number, edge: Edge): Cursor {
  const at = clamp(t, edge);
  return c.mode === 'playing' ? { mode: 'playing', t: at, wall } : { mode: 'paused', t: at };
}

/** A new speed takes effect from now without a jump. */
export function rebase(c: Cursor, oldSpeed: number, wall: number, edge: Edge): Cursor {
  return c.mode === 'playing'
    ? { mode: 'playing', t: cursorTime(c, oldSpeed, wall, edge), wall }
    : c;
}

/**
 * The next (dir 1) or previous (dir -1) moment with an event, strictly after/before `t`.
 * `times` must be ascending (duplicates allowed). Undefined when there is none.
 */
export function stepTarget(times: readonly number[], t: number, dir: 1 | -1): number | undefined {
  let lo = 0;
  let hi = times.length;
  // First index whose time is > t (dir 1) or >= t (dir -1).
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = times[mid] ?? Infinity;
    if (dir === 1 ? v <= t : v < t) lo = mid + 1;
    else hi = mid;
  }
  return dir === 1 ? times[lo] : times[lo - 1];
}

export function nearestSpeed(x: number): number {
  let best: number = DEFAULT_SPEED;
  for (const s of SPEEDS) if (Math.abs(Math.log(s / x)) < Math.abs(Math.log(best / x))) best = s;
  return best;
}
