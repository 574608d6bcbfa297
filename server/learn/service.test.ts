/**
 * LearnService: the list, one recording per scenario per process (also under concurrent
 * requests), recordings kept on disk and trusted only while they still replay, failures retried.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decode, encode } from '@/lib/timeline/codec';
import { findScenario, loadLibrary } from '@/server/scenarios/library';
import type { Scenario } from '@/server/scenarios/schema';
import { tempDir } from '@/server/timeline-db/testing/testkit';
import { recordScenario } from './record';
import { LearnService, WalkthroughNotFoundError } from './service';
import type { Recording } from './types';

let real: Recording;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  const s = findScenario('job-fails');
  if (!s) throw new Error('no job-fails');
  real = await recordScenario(s);
}, 60_000);
beforeEach(() => {
  tmp = tempDir('podscope-learn-');
});
afterEach(() => tmp.cleanup());

/** A recorder that hands out the real job-fails recording and counts its calls. */
function recorder(fail = 0) {
  const calls: string[] = [];
  let failures = fail;
  const record = (s: Scenario): Promise<Recording> => {
    calls.push(s.id);
    if (failures-- > 0) return Promise.reject(new Error('simulated node would not start'));
    return Promise.resolve(structuredClone(real));
  };
  return { calls, record };
}

describe('LearnService', () => {
  it('lists every scenario of the library with its message ids, level, topics and counts', () => {
    const list = new LearnService().list();
    expect(list.map((w) => w.id)).toEqual(loadLibrary().map((s) => s.id));
    const oom = list.find((w) => w.id === 'oomkilled');
    expect(oom).toEqual({
      id: 'oomkilled',
      title: 'scenarios.oomkilled.title',
      summary: 'scenarios.oomkilled.summary',
      level: 'beginner',
      topics: ['OOMKilled', 'resources.limits.memory', 'CrashLoopBackOff', 'lastState'],
      group: 'restarts',
      steps: 4,
      questions: 3,
    });
    for (const w of list) expect(w.questions, w.id).toBeGreaterThanOrEqual(1);
  });

  it('records a scenario once per process, also when asked twice at the same time', async () => {
    const r = recorder();
    const service = new LearnService({ record: r.record });
    const [a, b] = await Promise.all([
      service.recording('job-fails'),
      service.recording('job-fails'),
    ]);
    expect(a).toBe(b);
    expect(await service.recording('job-fails')).toBe(a);
    expect(r.calls).toEqual(['job-fails']);
  });

  it('refuses a scenario that does not exist', async () => {
    const service = new LearnService({ record: recorder().record });
    await expect(service.recording('no-such-thing')).rejects.toBeInstanceOf(
      WalkthroughNotFoundError,
    );
  });

  it('does not keep a failed recording: the next request records again', async () => {
    const r = recorder(1);
    const service = new LearnService({ record: r.record });
    await expect(service.recording('job-fails')).rejects.toThrow('would not start');
    await expect(service.recording('job-fails')).resolves.toMatchObject({ scenario: 'job-fails' });
    expect(r.calls).toEqual(['job-fails', 'job-fails']);
  });

  it('keeps recordings on disk for the next process, and records again when one no longer replays', async () => {
    const first = recorder();
    await new LearnService({ dir: tmp.dir, record: first.record }).recording('job-fails');
    expect(first.calls).toEqual(['job-fails']);

    const second = recorder();
    const kept = await new LearnService({ dir: tmp.dir, record: second.record }).recording(
      'job-fails',
    );
    expect(second.calls).toEqual([]);
    expect(kept.events).toEqual(real.events);

    // Tampered with: the failed Job's pod is said to be Succeeded. Not trusted, recorded again.
    const file = join(tmp.dir, 'job-fails.json');
    const stored = decode<{ key: string; recording: Recording }>(readFileSync(file, 'utf8'));
    const q = stored.recording.steps.find((s) => s.key === 'failed')?.question;
    if (q?.kind !== 'state') throw new Error('expected a state question');
    q.answer = 'Succeeded';
    writeFileSync(file, encode(stored));
    const logs: string[] = [];
    const third = recorder();
    await new LearnService({
      dir: tmp.dir,
      record: third.record,
      log: (l) => logs.push(l),
    }).recording('job-fails');
    expect(third.calls).toEqual(['job-fails']);
    expect(logs.join('\n')).toContain('does not replay');

    // Made from another version of the scenario (another key): recorded again, silently.
    writeFileSync(file, encode({ ...stored, key: 'something else' }));
    const fourth = recorder();
    await new LearnService({ dir: tmp.dir, record: fourth.record }).recording('job-fails');
    expect(fourth.calls).toEqual(['job-fails']);
  });
});
