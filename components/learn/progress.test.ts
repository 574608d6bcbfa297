import { describe, expect, it } from 'vitest';
import {
  finishWalkthrough,
  PROGRESS_KEY,
  readProgress,
  resumeStep,
  settleQuestion,
  statusOf,
  visitStep,
  writeProgress,
  type KeyValueStore,
} from './progress';

function memoryStore(initial?: string): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  if (initial !== undefined) data.set(PROGRESS_KEY, initial);
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('walkthrough progress', () => {
  it('goes from not started, through step k of n, to done — and survives a round trip through storage', () => {
    const store = memoryStore();
    let map = readProgress(store);
    expect(statusOf(map.oomkilled, 4)).toEqual({ kind: 'new' });
    map = visitStep(map, 'oomkilled', 1, 4, 1000);
    map = settleQuestion(map, 'oomkilled', 'killed', 'right', 4, 1001);
    expect(writeProgress(store, map)).toBe(true);

    const again = readProgress(store);
    expect(statusOf(again.oomkilled, 4)).toEqual({ kind: 'started', step: 2, of: 4 });
    expect(resumeStep(again.oomkilled, 4)).toBe(1);
    expect(again.oomkilled?.answered).toEqual({ killed: 'right' });

    const done = finishWalkthrough(again, 'oomkilled', 4, 2000);
    expect(statusOf(done.oomkilled, 4)).toEqual({ kind: 'done' });
    // Opening a finished walkthrough again starts at the beginning, and it stays finished.
    expect(resumeStep(done.oomkilled, 4)).toBe(0);
    expect(statusOf(visitStep(done, 'oomkilled', 0, 4, 3000).oomkilled, 4)).toEqual({
      kind: 'done',
    });
  });

  it('keeps a right answer right when the learner later asks to be shown', () => {
    let map = settleQuestion({}, 'crashloop', 'backoff', 'right', 5, 1);
    map = settleQuestion(map, 'crashloop', 'backoff', 'shown', 5, 2);
    map = settleQuestion(map, 'crashloop', 'growing', 'shown', 5, 3);
    expect(map.crashloop?.answered).toEqual({ backoff: 'right', growing: 'shown' });
  });

  it('starts over when the walkthrough changed its number of steps', () => {
    const map = visitStep({}, 'sidecar', 3, 4, 1);
    expect(statusOf(map.sidecar, 5)).toEqual({ kind: 'new' });
    expect(resumeStep(map.sidecar, 5)).toBe(0);
    expect(visitStep(map, 'sidecar', 1, 5, 2).sidecar).toMatchObject({
      step: 1,
      steps: 5,
      answered: {},
    });
  });

  it('clamps steps into range', () => {
    expect(visitStep({}, 'x', 9, 3, 1).x?.step).toBe(2);
    expect(visitStep({}, 'x', -4, 3, 1).x?.step).toBe(0);
  });

  it('reads junk as nothing, and drops invalid entries but keeps valid ones', () => {
    expect(readProgress(memoryStore('not json'))).toEqual({});
    expect(readProgress(memoryStore('[1,2]'))).toEqual({});
    expect(readProgress(undefined)).toEqual({});
    const mixed = readProgress(
      memoryStore(
        JSON.stringify({
          ok: {
            step: 7,
            steps: 3,
            answered: { a: 'right', b: 'maybe' },
            done: false,
            updatedAt: 5,
          },
          noSteps: { step: 0, steps: 0, answered: {}, done: false },
          'Bad Id': { step: 0, steps: 2, answered: {}, done: false },
          wrongType: { step: '1', steps: 2, done: false },
        }),
      ),
    );
    expect(mixed).toEqual({
      ok: { step: 2, steps: 3, answered: { a: 'right' }, done: false, updatedAt: 5 },
    });
  });

  it('survives storage that throws (disabled, or over quota)', () => {
    const broken: KeyValueStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readProgress(broken)).toEqual({});
    expect(writeProgress(broken, {})).toBe(false);
  });
});
