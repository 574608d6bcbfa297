/**
 * relistWorkerCount: how many relist workers the engine runs as nodes are added; kubeletVersionOf:
 * the operator's kubelet version a node is added with (in this thread or a worker).
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  AUTO_NODES_PER_RELIST_WORKER,
  AUTO_RELIST_WORKERS_FROM_NODES,
  MAX_AUTO_RELIST_WORKERS,
  kubeletVersionOf,
  relistWorkerCount,
  type EngineOptions,
} from './engine-options';

const options = (relistWorkers: EngineOptions['relistWorkers']) =>
  ({ relistWorkers }) as EngineOptions;
const floor = Math.max(1, availableParallelism() - 1);

describe('relistWorkerCount', () => {
  it('is the configured number, or none', () => {
    expect(relistWorkerCount(options({ count: 3 }), 0)).toBe(3);
    expect(relistWorkerCount(options({ count: 0 }), 500)).toBe(0);
    expect(relistWorkerCount(options(undefined), 500)).toBe(0);
  });

  it('keeps nodes with a test clock, a back-off or hint providers in the thread', () => {
    const o = { ...options({ count: 2 }), providers: [{}] } as unknown as EngineOptions;
    expect(relistWorkerCount(o, 100)).toBe(0);
  });

  it.each([
    // watched before the new node → workers
    [AUTO_RELIST_WORKERS_FROM_NODES - 2, 0],
    [AUTO_RELIST_WORKERS_FROM_NODES - 1, Math.max(floor, 1)],
    [AUTO_NODES_PER_RELIST_WORKER * 3 - 1, Math.max(floor, 3)],
    [AUTO_NODES_PER_RELIST_WORKER * 3, Math.max(floor, 4)],
    [AUTO_NODES_PER_RELIST_WORKER * 100, MAX_AUTO_RELIST_WORKERS],
  ])('auto with %i nodes watched: %i workers', (watched, workers) => {
    expect(relistWorkerCount(options({ count: 'auto' }), watched)).toBe(
      Math.min(MAX_AUTO_RELIST_WORKERS, workers),
    );
  });

  it('auto follows fromNodes and nodesPerWorker when given', () => {
    const o = options({ count: 'auto', fromNodes: 1, nodesPerWorker: 1 });
    expect(relistWorkerCount(o, 0)).toBe(Math.max(floor, 1));
    expect(relistWorkerCount(o, 4)).toBe(Math.max(floor, 5));
  });
});

describe('kubeletVersionOf', () => {
  const withVersions = {
    kubeletVersions: { all: '1.31', byNode: { a: 'v1.28.9' } },
  } as unknown as EngineOptions;
  it('the node’s own, else every node’s, else none', () => {
    expect(kubeletVersionOf(withVersions, 'a')).toBe('v1.28.9');
    expect(kubeletVersionOf(withVersions, 'b')).toBe('1.31');
    expect(kubeletVersionOf({} as EngineOptions, 'a')).toBeUndefined();
  });
});
