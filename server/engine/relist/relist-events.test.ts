import { describe, expect, it } from 'vitest';
import type { Transition } from './diff';
import type { RelistOutcome } from './node-watcher';
import { numberTransitions } from './relist-events';

const outcome = (transitions: Transition[]): RelistOutcome => ({
  node: 'n1',
  startedAt: 1_000,
  finishedAt: 1_010,
  source: 'relist',
  transitions,
  pods: new Map(),
  touched: new Set(transitions.map((t) => t.podUid)),
  removed: new Set(),
  previousContainers: new Map(),
});

const tr = (type: Transition['type'], id: string, container = 'app'): Transition => ({
  type,
  id,
  podUid: 'u1',
  container,
  detail: {},
});

describe('numberTransitions', () => {
  it('numbers in order; the pod’s cause is its first event, a container’s its first', () => {
    let n = 10;
    const r = numberTransitions(
      outcome([
        tr('ContainerCreated', 'c2'),
        tr('ContainerStarted', 'c2'),
        tr('ContainerExited', 's', 'side'),
      ]),
      () => ++n,
    );
    expect(r.events.map((e) => [e.seq, e.type])).toEqual([
      [11, 'ContainerCreated'],
      [12, 'ContainerStarted'],
      [13, 'ContainerExited'],
    ]);
    expect(r.podCause.get('u1')).toBe(11);
    expect(r.containerCause.get('u1')).toEqual(
      new Map([
        ['app', 11],
        ['side', 13],
      ]),
    );
  });

  it('an earlier run removed in the same relist is not why the current one changed', () => {
    // A crash loop: the run before last is garbage-collected as the last run exits (the demo's
    // payments-worker, every minute) — the state change is the exit's.
    let n = 0;
    const r = numberTransitions(
      outcome([tr('ContainerRemoved', 'old'), tr('ContainerExited', 'current')]),
      () => ++n,
    );
    expect(r.containerCause.get('u1')?.get('app')).toBe(2);
    // A removal alone (the pod is going) is the cause.
    const gone = numberTransitions(outcome([tr('ContainerRemoved', 'old')]), () => 7);
    expect(gone.containerCause.get('u1')?.get('app')).toBe(7);
  });
});
