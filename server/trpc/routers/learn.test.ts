/** The learn router through createCaller (no HTTP): input validation, list, recording, not found. */
import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { LearnService, type Recording } from '@/server/learn';
import type { Scenario } from '@/server/scenarios/schema';
import { createCaller } from '../root';
import { testContext } from '../testing/context';

const recorded: string[] = [];
const fake = (s: Scenario): Promise<Recording> => {
  recorded.push(s.id);
  return Promise.resolve({ scenario: s.id } as Recording);
};

let caller: ReturnType<typeof createCaller>;
beforeEach(() => {
  recorded.length = 0;
  caller = createCaller(testContext({ learn: new LearnService({ record: fake }) }));
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
  throw new Error('expected a TRPCError');
}

describe('learn router', () => {
  it('lists the walkthroughs', async () => {
    const list = await caller.learn.list();
    expect(list.length).toBeGreaterThanOrEqual(11);
    expect(list.find((w) => w.id === 'crashloop')).toMatchObject({
      title: 'scenarios.crashloop.title',
      level: 'beginner',
    });
  });

  it('returns a recording by id', async () => {
    await expect(caller.learn.recording({ id: 'oomkilled' })).resolves.toMatchObject({
      scenario: 'oomkilled',
    });
    expect(recorded).toEqual(['oomkilled']);
  });

  it('answers NOT_FOUND for an unknown walkthrough and BAD_REQUEST for a malformed id', async () => {
    expect(await code(caller.learn.recording({ id: 'no-such-walkthrough' }))).toBe('NOT_FOUND');
    expect(await code(caller.learn.recording({ id: '../etc/passwd' }))).toBe('BAD_REQUEST');
    expect(await code(caller.learn.recording({ id: 'x'.repeat(65) }))).toBe('BAD_REQUEST');
    expect(recorded).toEqual([]);
  });
});
