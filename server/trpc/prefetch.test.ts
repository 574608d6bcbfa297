import { afterEach, describe, expect, it } from 'vitest';
import { awaitedAhead } from './prefetch';

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', record);
  unhandled.length = 0;
});

async function* fellBehind() {
  yield await Promise.resolve(1);
  throw new Error('subscriber fell behind; resume from the last event id');
}

describe('awaitedAhead', () => {
  it('an error thrown while the reader is still writing the item before is not an unhandled rejection, and still reaches the reader', async () => {
    process.on('unhandledRejection', record);
    const it = awaitedAhead(fellBehind());
    expect(await it.next()).toEqual({ value: 1, done: false });
    // As tRPC's withPing: ask for the next item, then write the current one (slowly).
    const ahead = it.next();
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
    await expect(ahead).rejects.toThrow(/fell behind/);
  });

  it('passes values, return and throw through', async () => {
    async function* counter() {
      let i = 0;
      try {
        for (;;) yield await Promise.resolve(i++);
      } finally {
        yield -1;
      }
    }
    const it = awaitedAhead(counter());
    expect([(await it.next()).value, (await it.next()).value]).toEqual([0, 1]);
    expect(await it.return(undefined)).toEqual({ value: -1, done: false });
    await expect(it.throw(new Error('stop'))).rejects.toThrow('stop');
    const values: number[] = [];
    for await (const v of awaitedAhead(
      (async function* () {
        yield* await Promise.resolve([5, 6]);
      })(),
    ))
      values.push(v);
    expect(values).toEqual([5, 6]);
  });
});
