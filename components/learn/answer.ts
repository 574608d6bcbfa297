/**
 * The walkthrough's pure decisions: is a pick the right answer (and if not, is it at least the
 * right kind of thing), what the diagram highlights while a question is open, and how fast the
 * replay plays from one step's moment to the next.
 */
import { SPEEDS } from '@/components/data/cursor';
import type { Layer } from '@/components/data/entity';
import type { Question, RecordedStep } from './types';

export type Pick = { kind: 'entity'; id: string; layer: Layer } | { kind: 'state'; state: string };

export type Verdict =
  | { right: true }
  /** `layer`: the pick is another kind of thing than asked (a pod for a container …). */
  | { right: false; why: 'layer' | 'other' };

export function judge(q: Question, pick: Pick): Verdict {
  if (q.kind === 'entity') {
    if (pick.kind !== 'entity') return { right: false, why: 'other' };
    if (q.answers.includes(pick.id)) return { right: true };
    return { right: false, why: pick.layer === q.layer ? 'other' : 'layer' };
  }
  if (pick.kind !== 'state') return { right: false, why: 'other' };
  return pick.state === q.answer ? { right: true } : { right: false, why: 'other' };
}

/** The entity a data-id sits in: the pod of a container, the node of a pod; none for the node. */
function scopeOf(id: string, node: string): string | undefined {
  if (id === node) return undefined;
  const slash = id.indexOf('/');
  return slash >= 0 ? id.slice(0, slash) : node;
}

/**
 * What to highlight: the step's entities — except while a "click the one that …" question is
 * open, when pointing at an answer would give it away: then the pod (or node) around it instead.
 */
export function highlightIds(step: RecordedStep, node: string, settled: boolean): string[] {
  const q = step.question;
  if (settled || q?.kind !== 'entity') return step.entities;
  const answers = q.answers;
  const gives = (id: string) => answers.some((a) => id === a || id.startsWith(`${a}/`));
  const out = new Set<string>();
  for (const start of step.entities) {
    let id: string | undefined = start;
    while (id !== undefined && gives(id)) id = scopeOf(id, node);
    if (id !== undefined) out.add(id);
  }
  return [...out];
}

/** Longest a replay between two steps should take, in real time. */
export const MAX_REPLAY_MS = 12_000;
/** Slow motion: a replay never runs faster than needed, nor faster than this when it is short. */
export const SLOW_MOTION = 0.5;

/** The speed to replay `gapMs` of recorded time: 0.5× if that fits in 12 s, else the slowest that does. */
export function replaySpeed(gapMs: number): number {
  const ok = SPEEDS.filter((s) => s >= SLOW_MOTION && gapMs / s <= MAX_REPLAY_MS);
  return ok[0] ?? SPEEDS[SPEEDS.length - 1] ?? 16;
}
