/**
 * Every scenario of the library records, replays to every step's expected outcome, asks at least
 * one question whose answers the replay confirms — and records the same thing a second time.
 */
import { describe, expect, it } from 'vitest';
import { loadLibrary } from '@/server/scenarios/library';
import { recordScenario } from './record';
import { recordingShape as shape } from './testing/shape';
import { verifyRecording } from './verify';

describe('walkthrough recordings of the whole library', () => {
  for (const s of loadLibrary()) {
    it(`${s.id} records, replays, and records the same again`, { timeout: 240_000 }, async () => {
      const r = await recordScenario(s);
      expect(verifyRecording(s, r)).toEqual([]);
      expect(r.steps).toHaveLength(s.steps.length);
      const asked = r.steps.filter((x) => x.question !== undefined);
      expect(asked.length).toBeGreaterThanOrEqual(1);
      // Most steps with an outcome to look at ask something.
      const withOutcome = r.steps.filter((x) => x.expectations.length > 0);
      expect(asked.length * 2).toBeGreaterThanOrEqual(withOutcome.length);

      const again = await recordScenario(s);
      expect(shape(again)).toEqual(shape(r));
    });
  }
});
