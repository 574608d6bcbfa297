/**
 * The embedded workload's pod uids: the same on every run of a new timeline (a seed replays the
 * same workload), and different for a run that continues a kept timeline — the simulated nodes
 * are new then, and a uid the timeline already holds must not name a different pod.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri/client';
import { startSimNode, type SimNode } from '@/server/sim';
import { startEmbeddedWorkload } from './embedded';

const spec = (name: string): V1Pod => ({
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [{ name: 'c', image: 'podscope.local/busybox:1', command: ['sleep', '60'] }],
  },
});

describe('embedded workload uids', () => {
  let node: SimNode;
  beforeAll(async () => {
    node = await startSimNode({ name: 'uid-node' });
  });
  afterAll(async () => {
    await node.stop();
  });

  async function firstUid(name: string, runAfterSeq?: number): Promise<string> {
    const w = await startEmbeddedWorkload({
      nodes: [{ name: 'uid-node', client: new CriClient(node.endpoint) }],
      clock: node.clock,
      backoffScale: 1,
      seed: 1,
      demo: false,
      ...(runAfterSeq !== undefined ? { runAfterSeq } : {}),
      log: () => undefined,
    });
    try {
      const pod = await w.drivers[0]?.apply(spec(name));
      await w.drivers[0]?.delete(pod?.metadata?.uid ?? '', { gracePeriodSeconds: 0 });
      return pod?.metadata?.uid ?? '';
    } finally {
      await w.stop();
    }
  }

  it('repeats on a new timeline and changes on a kept one', async () => {
    const fresh = await firstUid('a');
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect(await firstUid('b', 0)).toBe(fresh);
    const kept = await firstUid('c', 1928);
    expect(kept).not.toBe(fresh);
    expect(await firstUid('d', 2001)).not.toBe(kept);
  });
});
