/** The question table matches the library: real scenarios and steps, texts in both languages. */
import { describe, expect, it } from 'vitest';
import { learnText, loadLibrary } from '@/server/scenarios/library';
import { expectationsOf, stepKey } from './derive';
import { hintId, promptId, QUESTIONS } from './questions';

describe('walkthrough questions', () => {
  it('ask about real steps, through expectations those steps have', () => {
    const library = new Map(loadLibrary().map((s) => [s.id, s]));
    for (const [id, steps] of Object.entries(QUESTIONS)) {
      const s = library.get(id);
      expect(s, id).toBeDefined();
      if (!s) continue;
      for (const [key, spec] of Object.entries(steps)) {
        const index = s.steps.findIndex((step, i) => stepKey(step, i) === key);
        const step = s.steps[index];
        expect(step, `${id}.${key}`).toBeDefined();
        if (step) expect(expectationsOf(step)[spec.expectation], `${id}.${key}`).toBeDefined();
      }
    }
  });

  it('exist for every scenario of the library', () => {
    for (const s of loadLibrary())
      expect(Object.keys(QUESTIONS[s.id] ?? {}).length, s.id).toBeGreaterThan(0);
  });

  it('have a prompt and a hint in English and Chinese', () => {
    for (const [id, steps] of Object.entries(QUESTIONS)) {
      for (const key of Object.keys(steps)) {
        for (const msg of [promptId(id, key), hintId(id, key)]) {
          expect(learnText(msg, 'en'), msg).toBeTruthy();
          expect(learnText(msg, 'zh-CN'), msg).toBeTruthy();
        }
      }
    }
  });
});
