import { describe, expect, it } from 'vitest';
import { nodeFacts, podRow } from './cells';
import { decodeCursor, search, type SearchNode } from './search';
import { node, pod, type NodeSpec } from './testing/fixtures';

const build = (specs: NodeSpec[]): SearchNode[] =>
  specs.map((s, cell) => {
    const n = node(s);
    return { cell, facts: nodeFacts(n), rows: Object.values(n.pods).map((p) => podRow(p, 1_000)) };
  });

const cluster = build([
  {
    name: 'worker-1',
    labels: { 'topology.kubernetes.io/zone': 'a' },
    pods: [
      pod({ uid: 'a1', name: 'web-1', namespace: 'shop', labels: { app: 'web' } }),
      pod({
        uid: 'a2',
        name: 'cart-1',
        namespace: 'shop',
        containers: ['CrashLoopBackOff'],
        ready: false,
      }),
    ],
  },
  {
    name: 'worker-2',
    ready: 'Unknown',
    labels: { 'topology.kubernetes.io/zone': 'b' },
    pods: [
      pod({
        uid: 'b1',
        name: 'web-2',
        namespace: 'shop',
        labels: { app: 'web' },
        ready: false,
        readyReason: 'NodeNotReady',
      }),
      pod({
        uid: 'b2',
        name: 'db-0',
        namespace: 'data',
        phase: 'Pending',
        containers: ['ContainerCreating'],
      }),
    ],
  },
  { name: 'worker-10', pods: [] },
]);

const names = (q: string) => search(q, cluster).hits.map((h) => h.pod ?? h.node);

describe('search', () => {
  it.each([
    ['ns:shop reason:CrashLoopBackOff', ['cart-1']],
    ['ns:shop', ['cart-1', 'web-2', 'web-1']],
    ['ns:sh*', ['cart-1', 'web-2', 'web-1']],
    ['web', ['web-2', 'web-1']],
    ['WEB', ['web-2', 'web-1']],
    ['label:app=web', ['web-2', 'web-1']],
    ['label:topology.kubernetes.io/zone=b', ['web-2', 'db-0']],
    ['label:app', ['web-2', 'web-1']],
    ['phase:pending', ['db-0']],
    ['state:waiting', ['cart-1', 'db-0']],
    ['ready:false', ['cart-1', 'web-2', 'db-0']],
    ['ns:shop ns:data', ['cart-1', 'web-2', 'db-0', 'web-1']],
    ['health:failing', ['cart-1']],
    ['node:worker-1', ['worker-1']],
    ['node:worker-1*', ['worker-1', 'worker-10']],
    ['nodeready:unknown', ['worker-2']],
    ['node:worker-1 web', ['web-1']],
    ['"<script>"', []],
  ])('%s', (q, want) => {
    expect(names(q)).toEqual(want);
  });

  it('names the cells with hits', () => {
    expect(search('web', cluster).cells).toEqual([0, 1]);
    expect(search('', cluster).total).toBe(4);
  });

  it('a query that does not parse answers with the error alone', () => {
    const r = search('ns:shop colour:red', cluster);
    expect(r.error).toEqual({ message: expect.stringContaining('unknown key') as string, at: 8 });
    expect(r.hits).toEqual([]);
    expect(r.total).toBe(0);
  });

  it('an unknown change group is an error', () => {
    expect(search('change:nope', cluster).error?.message).toContain('no change group');
    const r = search('change:g', cluster, {
      change: () => ({ kind: 'node', members: new Set(['worker-2']) }),
    });
    expect(r.hits.map((h) => h.node)).toEqual(['worker-2']);
  });

  it('pages in rank order with a cursor, each hit once', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = search('', cluster, { page: 1, ...(cursor ? { cursor } : {}) });
      expect(r.total).toBe(4);
      seen.push(...r.hits.map((h) => h.pod ?? ''));
      cursor = r.next;
      if (!cursor) break;
    }
    expect(seen).toEqual(['cart-1', 'web-2', 'db-0', 'web-1']);
    expect(search('', cluster, { cursor: 'garbage!' }).error?.message).toContain('cursor');
    expect(decodeCursor('e30')).toBeUndefined();
  });

  it('a page of 150,000 matches is one page', () => {
    const big = build(
      Array.from({ length: 500 }, (_, i) => ({
        name: `n${i}`,
        pods: Array.from({ length: 300 }, (_, j) => pod({ uid: `${i}-${j}`, name: `p-${i}-${j}` })),
      })),
    );
    const r = search('', big);
    expect(r.total).toBe(150_000);
    expect(r.hits).toHaveLength(50);
    expect(r.next).toBeDefined();
    expect(r.cells).toHaveLength(500);
  });
});
