import { describe, expect, it } from 'vitest';
import { backoffGet, containerBackoff, recordRestarts, type BackoffState } from '@/lib/kubelet';
import type { RuntimeContainer } from '@/lib/kubelet/runtime';
import type { Transition } from '../relist/diff';
import type { RelistOutcome } from '../relist/node-watcher';
import { PodDeriver } from './pod-deriver';
import { DEFAULT_ENGINE_TIMINGS, nodeTimings } from '../timings';
import { crashed } from '../testing/memory-runtime';

const deriver = () =>
  new PodDeriver({ node: 'n', timings: nodeTimings(DEFAULT_ENGINE_TIMINGS), relistMs: 1_000 });

const record = (over: Partial<RuntimeContainer>): RuntimeContainer => ({ ...crashed, ...over });

const created = (id: string, container: string, podUid = 'u1'): Transition => ({
  type: 'ContainerCreated',
  id,
  podUid,
  container,
  detail: {},
});

function outcome(transitions: Transition[], previous: RuntimeContainer[]): RelistOutcome {
  return {
    node: 'n',
    startedAt: 10_000,
    finishedAt: 10_050,
    source: 'relist',
    transitions,
    pods: new Map(),
    touched: new Set(),
    removed: new Set(),
    previousContainers: new Map(previous.map((c) => [c.id, c])),
  };
}

describe('PodDeriver.noteRestarts', () => {
  it('records a new attempt after exits of the same container, from the latest exit', () => {
    const restarts = deriver().noteRestarts(
      outcome(
        [created('c3', 'app'), created('w2', 'web')],
        [
          record({ id: 'c1', finishedAt: 2_000 }),
          record({ id: 'c2', finishedAt: 5_000 }),
          record({ id: 'c3', state: 'created', finishedAt: 9_000 }),
          record({ id: 'x1', name: 'sidecar', finishedAt: 8_000 }),
          record({ id: 'r1', name: 'web', state: 'running', finishedAt: 7_000 }),
        ],
      ),
    );
    // web's only other record is running: not a restart after an exit.
    expect(restarts).toEqual([
      {
        ref: { podUid: 'u1', container: 'app' },
        previousExitAt: 5_000,
        restartAt: 10_050,
      },
    ]);
  });

  it('matches another pod’s record of that name only when the record names a sandbox', () => {
    const other = { 'io.kubernetes.pod.uid': 'u2', 'io.kubernetes.container.name': 'app' };
    const withSandbox = deriver().noteRestarts(
      outcome([created('c9', 'app')], [record({ id: 'c1', labels: other, finishedAt: 3_000 })]),
    );
    expect(withSandbox.map((r) => r.previousExitAt)).toEqual([3_000]);
    const without = deriver().noteRestarts(
      outcome(
        [created('c9', 'app')],
        [record({ id: 'c1', labels: other, sandboxId: '', finishedAt: 3_000 })],
      ),
    );
    expect(without).toEqual([]);
  });

  it('records nothing without a new attempt', () => {
    const previous = [record({ id: 'c1', finishedAt: 2_000 })];
    const started: Transition = { ...created('c1', 'app'), type: 'ContainerStarted' };
    expect(deriver().noteRestarts(outcome([started], previous))).toEqual([]);
    expect(deriver().noteRestarts(outcome([], previous))).toEqual([]);
  });
});

describe('PodDeriver back-off table', () => {
  it('writes restarts into its own copy, never into the table the options gave', () => {
    const given = containerBackoff();
    const d = new PodDeriver({
      node: 'n',
      timings: nodeTimings(DEFAULT_ENGINE_TIMINGS),
      relistMs: 1_000,
      backoff: () => given,
    });
    const previous = [record({ id: 'c1', finishedAt: 2_000 })];
    let expected: BackoffState = given;
    for (const id of ['c2', 'c3']) {
      const restarts = d.noteRestarts(outcome([created(id, 'app')], previous));
      expected = recordRestarts(expected, restarts);
    }
    expect(given.entries).toEqual({});
    expect(d['backoff']).toStrictEqual(expected);
    expect(backoffGet(d['backoff'], '__u1_app_')).toBe(20_000);
  });
});
