/**
 * Walkthrough progress, kept in the browser (localStorage): where each walkthrough was left, the
 * questions answered, whether it was finished. Pure functions over a minimal key-value store, so
 * they are tested without a browser; whatever is stored is untrusted and read defensively.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const PROGRESS_KEY = 'podscope.learn.progress.v1';

/** How a question was settled: answered right, or the learner asked to be shown. */
export type Settled = 'right' | 'shown';

export interface WalkthroughProgress {
  /** The step the learner is on (0-based). */
  step: number;
  /** How many steps the walkthrough had then. */
  steps: number;
  /** Step key → how its question was settled. */
  answered: Record<string, Settled>;
  done: boolean;
  /** Epoch ms of the last change. */
  updatedAt: number;
}

export type ProgressMap = Record<string, WalkthroughProgress>;

export type ProgressStatus =
  { kind: 'new' } | { kind: 'started'; step: number; of: number } | { kind: 'done' };

const MAX_ENTRIES = 200;
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function entry(v: unknown): WalkthroughProgress | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (!isInt(o.step) || !isInt(o.steps) || o.steps === 0 || typeof o.done !== 'boolean')
    return undefined;
  const answered: Record<string, Settled> = {};
  if (typeof o.answered === 'object' && o.answered !== null) {
    for (const [k, s] of Object.entries(o.answered as Record<string, unknown>))
      if (s === 'right' || s === 'shown') answered[k] = s;
  }
  return {
    step: Math.min(o.step, o.steps - 1),
    steps: o.steps,
    answered,
    done: o.done,
    updatedAt: typeof o.updatedAt === 'number' && Number.isFinite(o.updatedAt) ? o.updatedAt : 0,
  };
}

/** Everything stored; junk (another version, a hand edit, a full disk) reads as nothing. */
export function readProgress(store: KeyValueStore | undefined): ProgressMap {
  let raw: string | null = null;
  try {
    raw = store?.getItem(PROGRESS_KEY) ?? null;
  } catch {
    return {}; // storage disabled (private mode, policy)
  }
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const out: ProgressMap = {};
  for (const [id, v] of Object.entries(parsed as Record<string, unknown>).slice(0, MAX_ENTRIES)) {
    const e = entry(v);
    if (e && /^[a-z][a-z0-9-]*$/.test(id)) out[id] = e;
  }
  return out;
}

/** Writes the map; returns false when the browser refuses (quota, disabled storage). */
export function writeProgress(store: KeyValueStore | undefined, map: ProgressMap): boolean {
  try {
    store?.setItem(PROGRESS_KEY, JSON.stringify(map));
    return store !== undefined;
  } catch {
    return false;
  }
}

function base(map: ProgressMap, id: string, steps: number): WalkthroughProgress {
  const p = map[id];
  return p && p.steps === steps ? p : { step: 0, steps, answered: {}, done: false, updatedAt: 0 };
}

/** The learner is on `step` (0-based) of a walkthrough with `steps` steps. A finished one stays finished. */
export function visitStep(
  map: ProgressMap,
  id: string,
  step: number,
  steps: number,
  now: number,
): ProgressMap {
  const p = base(map, id, steps);
  const at = Math.max(0, Math.min(step, steps - 1));
  return { ...map, [id]: { ...p, step: at, updatedAt: now } };
}

export function settleQuestion(
  map: ProgressMap,
  id: string,
  stepKey: string,
  how: Settled,
  steps: number,
  now: number,
): ProgressMap {
  const p = base(map, id, steps);
  // Being shown after answering right does not undo the right answer.
  const settled: Settled = p.answered[stepKey] === 'right' ? 'right' : how;
  return {
    ...map,
    [id]: { ...p, answered: { ...p.answered, [stepKey]: settled }, updatedAt: now },
  };
}

export function finishWalkthrough(
  map: ProgressMap,
  id: string,
  steps: number,
  now: number,
): ProgressMap {
  const p = base(map, id, steps);
  return { ...map, [id]: { ...p, step: steps - 1, done: true, updatedAt: now } };
}

/** What the /learn list shows for a walkthrough with `steps` steps. */
export function statusOf(p: WalkthroughProgress | undefined, steps: number): ProgressStatus {
  if (!p || p.steps !== steps) return { kind: 'new' };
  if (p.done) return { kind: 'done' };
  return { kind: 'started', step: p.step + 1, of: steps };
}

/** Where to resume (0-based): the saved step, or the start (also after finishing). */
export function resumeStep(p: WalkthroughProgress | undefined, steps: number): number {
  if (!p || p.steps !== steps || p.done) return 0;
  return Math.max(0, Math.min(p.step, steps - 1));
}
