/** The snapshot document names, per node, which kubelet version's rules were applied and why. */
import { describe, expect, it } from 'vitest';
import type { ClusterState, NodeView } from '@/lib/timeline/state';
import { snapshotDocument, snapshotSummary } from './snapshot';

const node = (name: string, kubelet?: NodeView['kubelet']): NodeView => ({
  name,
  endpoint: `unix:///run/${name}.sock`,
  runtimeConditions: [],
  conditions: [],
  why: {},
  health: { connected: true },
  pods: {},
  ...(kubelet ? { kubelet } : {}),
});

describe('snapshot: kubeletVersion per node', () => {
  const state: ClusterState = {
    seq: 3,
    t: 1,
    nodes: {
      a: node('a', { value: '1.29', source: 'api-server', reported: 'v1.29.3' }),
      b: node('b', { value: '1.31', source: 'flag' }),
      c: node('c', { value: '1.36', source: 'default' }),
      old: node('old'),
    },
  };
  const doc = snapshotDocument(
    state,
    ['a', 'b', 'c', 'old'].map((name) => ({ name, endpoint: '', lab: false })),
  );
  const byName = Object.fromEntries(doc.nodes.map((n) => [n.name, n.kubeletVersion]));

  it('value and source as the node carries them, with the sentence that says so', () => {
    expect(byName.a).toMatchObject({ value: '1.29', source: 'api-server', reported: 'v1.29.3' });
    expect(byName.a?.why).toContain('status.nodeInfo.kubeletVersion');
    expect(byName.b).toMatchObject({ value: '1.31', source: 'flag' });
    expect(byName.b?.why).toContain('--kubelet-version');
    expect(byName.c).toMatchObject({ value: '1.36', source: 'default' });
    expect(byName.c?.why).toMatch(/not known.*1\.36/);
  });

  it('a recording from before nodes carried it: the newest minor, as the default', () => {
    expect(byName.old).toMatchObject({ value: '1.36', source: 'default' });
  });

  it('the summary prints it under the node', () => {
    expect(snapshotSummary(doc)).toContain('  kubelet 1.29 rules (api-server) — Kubelet v1.29.3');
  });
});
