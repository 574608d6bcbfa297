import { describe, expect, it } from 'vitest';
import { containersNewestFirst, findContainerStatusByName } from './records';
import { record, runtimeOf } from './testing/fixtures';

describe('containersNewestFirst', () => {
  it('orders by createdAt, then attempt, newest first; drops malformed records', () => {
    const runtime = runtimeOf([
      record({ name: 'a', id: 'a1', createdAt: 10, attempt: 0 }),
      null as never,
      record({ name: 'a', id: 'a2', createdAt: 30, attempt: 1 }),
      record({ name: 'b', id: 'b1', createdAt: 30, attempt: 2 }),
    ]);
    expect(containersNewestFirst(runtime).map((c) => c.id)).toEqual(['b1', 'a2', 'a1']);
    expect(findContainerStatusByName(runtime, 'a')?.id).toBe('a2');
    expect(containersNewestFirst(undefined)).toEqual([]);
    expect(containersNewestFirst({ ...runtime, containers: 'x' as never })).toEqual([]);
  });

  it('sorts a list once, and again when its records changed', () => {
    const runtime = runtimeOf([
      record({ name: 'a', id: 'a1', createdAt: 10 }),
      record({ name: 'b', id: 'b1', createdAt: 20 }),
    ]);
    const first = containersNewestFirst(runtime);
    expect(first.map((c) => c.id)).toEqual(['b1', 'a1']);
    expect(containersNewestFirst({ ...runtime })).toBe(first); // same list, same records
    runtime.containers[0] = record({ name: 'a', id: 'a2', createdAt: 30 });
    expect(containersNewestFirst(runtime).map((c) => c.id)).toEqual(['a2', 'b1']);
    runtime.containers.push(record({ name: 'c', id: 'c1', createdAt: 40 }));
    expect(containersNewestFirst(runtime).map((c) => c.id)).toEqual(['c1', 'a2', 'b1']);
    expect(first.map((c) => c.id)).toEqual(['b1', 'a1']); // an earlier answer is not changed
  });
});
