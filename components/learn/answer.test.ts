import { describe, expect, it } from 'vitest';
import type { Question, RecordedStep } from './types';
import { highlightIds, judge, MAX_REPLAY_MS, replaySpeed } from './answer';

const POD = 'p1';
const OTHER = 'p2';
const killed: Question = {
  kind: 'entity',
  prompt: 'p',
  hint: 'h',
  layer: 'container',
  answers: [`${POD}/thumbnailer`],
  focus: ['lastRun', 'state'],
};
const phase: Question = {
  kind: 'state',
  prompt: 'p',
  hint: 'h',
  machine: 'pod',
  entity: POD,
  answer: 'Running',
  focus: ['phase'],
};

function step(question: Question | undefined, entities: string[]): RecordedStep {
  return {
    index: 1,
    do: 'wait',
    key: 'k',
    startedAt: 0,
    t: 0,
    expectations: [],
    entities,
    ...(question ? { question } : {}),
  };
}

describe('judge', () => {
  it('accepts exactly the right entity', () => {
    expect(judge(killed, { kind: 'entity', id: `${POD}/thumbnailer`, layer: 'container' })).toEqual(
      { right: true },
    );
    expect(
      judge(killed, { kind: 'entity', id: `${OTHER}/thumbnailer`, layer: 'container' }),
    ).toEqual({ right: false, why: 'other' });
  });

  it('tells a pick of the wrong kind of thing apart (the pod, when a container is asked for)', () => {
    expect(judge(killed, { kind: 'entity', id: POD, layer: 'pod' })).toEqual({
      right: false,
      why: 'layer',
    });
    expect(judge(killed, { kind: 'entity', id: 'worker-1', layer: 'node' })).toEqual({
      right: false,
      why: 'layer',
    });
    expect(judge(killed, { kind: 'state', state: 'terminated' })).toEqual({
      right: false,
      why: 'other',
    });
  });

  it('accepts exactly the right state', () => {
    expect(judge(phase, { kind: 'state', state: 'Running' })).toEqual({ right: true });
    // CrashLoopBackOff is not a phase; neither is Failed the answer here.
    expect(judge(phase, { kind: 'state', state: 'Failed' })).toEqual({
      right: false,
      why: 'other',
    });
    expect(judge(phase, { kind: 'entity', id: POD, layer: 'pod' })).toEqual({
      right: false,
      why: 'other',
    });
  });
});

describe('highlightIds', () => {
  it('points at the pod, not the container, while "click the container" is open; at both once settled', () => {
    const s = step(killed, [`${POD}/thumbnailer`, POD]);
    expect(highlightIds(s, 'worker-1', false)).toEqual([POD]);
    expect(highlightIds(s, 'worker-1', true)).toEqual([`${POD}/thumbnailer`, POD]);
  });

  it('points at the node while "click the pod" is open', () => {
    const s = step({ ...killed, layer: 'pod', answers: [POD] }, [POD, `${POD}/app`, OTHER]);
    expect(highlightIds(s, 'worker-1', false).sort()).toEqual(['worker-1', OTHER].sort());
  });

  it('highlights the step entities as they are for state questions and narration', () => {
    expect(highlightIds(step(phase, [POD]), 'worker-1', false)).toEqual([POD]);
    expect(highlightIds(step(undefined, [`${POD}/a`]), 'worker-1', false)).toEqual([`${POD}/a`]);
  });

  it('highlights nothing rather than the answer when the answer is the node itself', () => {
    const q: Question = { ...killed, layer: 'node', answers: ['worker-1'] };
    expect(highlightIds(step(q, ['worker-1']), 'worker-1', false)).toEqual([]);
  });
});

describe('replaySpeed', () => {
  it('plays short gaps in slow motion and long ones fast enough to fit', () => {
    expect(replaySpeed(5_000)).toBe(0.5);
    expect(replaySpeed(6_000)).toBe(0.5);
    expect(replaySpeed(6_001)).toBe(1);
    expect(replaySpeed(50_000)).toBe(8);
    for (const gap of [100, 9_000, 40_000, 150_000])
      expect(gap / replaySpeed(gap)).toBeLessThanOrEqual(MAX_REPLAY_MS);
    // Longer than the fastest speed allows: the fastest speed.
    expect(replaySpeed(300_000)).toBe(16);
  });
});
