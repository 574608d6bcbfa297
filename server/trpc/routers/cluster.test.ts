/**
 * cluster.watch's re-judged snapshots (node contact changed with no event): the first goes at
 * once, the next not sooner than resnapshotAfterMs(nodes) after it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyState, type ClusterState } from '@/lib/timeline/state';
import type { EngineApi } from '@/server/engine/api';
import { EventBus } from '@/server/engine/bus';
import { createCaller } from '../root';
import { testContext } from '../testing/context';
import { RESNAPSHOT_MIN_MS, resnapshotAfterMs } from './cluster';

afterEach(() => void vi.useRealTimers());

/** A source whose node contact the test re-judges by hand. */
function judgedSource(nodes: number) {
  const state: ClusterState = { ...emptyState(), seq: 7, t: 1 };
  for (let i = 0; i < nodes; i++)
    state.nodes[`n${i}`] = { name: `n${i}` } as ClusterState['nodes'][string];
  const waiters = new Set<() => void>();
  const bus = new EventBus();
  const source = {
    snapshot: () => state,
    subscribe: (signal?: AbortSignal) => bus.subscribe(signal),
    eventsAfter: () => [],
    oldestSeq: () => 0,
    stateAt: () => state,
    rejudged: () => new Promise<void>((resolve) => waiters.add(resolve)),
  } as unknown as EngineApi;
  const rejudge = () => {
    for (const w of waiters) w();
    waiters.clear();
  };
  return { source, rejudge };
}

async function watching(nodes: number) {
  const { source, rejudge } = judgedSource(nodes);
  const stream = await createCaller(testContext({ engine: source })).cluster.watch(undefined);
  const it = stream[Symbol.asyncIterator]();
  /**
   * Asks for the next message, re-judges once the stream waits for it, and lets `advance` ms
   * pass: the message, or 'nothing' if none came by then (`later` has it when it does).
   */
  const rejudged = async (advance: number) => {
    let got: unknown = 'nothing';
    const later = it.next().then((r) => (got = r.value));
    await vi.advanceTimersByTimeAsync(1);
    rejudge();
    await vi.advanceTimersByTimeAsync(advance);
    return { got, later };
  };
  return { it, rejudged, stop: () => void it.return?.(undefined) };
}

/** A tracked message's type (the caller yields [id, message, …]). */
const type = (v: unknown) => (v as [string, { type: string }] | undefined)?.[1].type;

describe('cluster.watch re-judged snapshots', () => {
  it('sends the first at once and the next no sooner than the minimum interval after it', async () => {
    vi.useFakeTimers();
    const w = await watching(3);
    expect(type((await w.it.next()).value)).toBe('snapshot'); // the first, on connecting
    expect(type((await w.rejudged(1)).got)).toBe('snapshot');
    const second = await w.rejudged(RESNAPSHOT_MIN_MS - 100);
    expect(second.got).toBe('nothing');
    await vi.advanceTimersByTimeAsync(200);
    expect(type(await second.later)).toBe('snapshot');
    w.stop();
  });

  it('spaces them by the size of the cluster', async () => {
    vi.useFakeTimers();
    expect(resnapshotAfterMs(10)).toBe(RESNAPSHOT_MIN_MS);
    expect(resnapshotAfterMs(5_000)).toBeGreaterThan(RESNAPSHOT_MIN_MS);
    const w = await watching(5_000);
    await w.it.next();
    expect(type((await w.rejudged(1)).got)).toBe('snapshot');
    const next = await w.rejudged(resnapshotAfterMs(5_000) - 100);
    expect(next.got).toBe('nothing');
    await vi.advanceTimersByTimeAsync(200);
    expect(type(await next.later)).toBe('snapshot');
    w.stop();
  });
});
