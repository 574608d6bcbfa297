import { describe, expect, it } from 'vitest';
import type { NodeView } from '@/lib/timeline/state';
import { NODES, T } from './testing/fixtures';
import { badgeCounts, driftRelevant, driftRows, driftTotal, kindCounts, paramsAt } from './rows';

describe('drift rows', () => {
  it('lists real drift first, by kind, with the entity each belongs to', () => {
    const rows = driftRows(NODES, { kind: 'all', includePropagating: true });
    expect(rows.map((r) => [r.drift.kind, r.drift.status, r.entityId, r.entityLabel])).toEqual([
      ['staleStatus', 'drift', 'u1/app', 'default/web/app'],
      ['kubeletNotReporting', 'drift', 'node-a', 'node-a'],
      ['missingPod', 'drift', 'node-b', 'default/settings'],
      ['phaseMismatch', 'propagating', 'u1', 'default/web'],
    ]);
  });

  it('hides what is still propagating unless asked, and filters by kind', () => {
    expect(driftRows(NODES, { kind: 'all', includePropagating: false })).toHaveLength(3);
    expect(
      driftRows(NODES, { kind: 'missingPod', includePropagating: true }).map((r) => r.drift.kind),
    ).toEqual(['missingPod']);
    expect(driftRows(NODES, { kind: 'phaseMismatch', includePropagating: false })).toEqual([]);
  });

  it('counts each kind present, in kind order', () => {
    expect([...kindCounts(NODES, false)]).toEqual([
      ['staleStatus', 1],
      ['kubeletNotReporting', 1],
      ['missingPod', 1],
    ]);
    expect(kindCounts(NODES, true).get('phaseMismatch')).toBe(1);
  });

  it('recomputes “N s ago” parameters from since at the moment shown', () => {
    const stale = NODES['node-a']!.pods.u1!.drift![1]!;
    expect(paramsAt(stale, T)).toMatchObject({ lagSeconds: 30, container: 'app' });
    expect(paramsAt(stale, T + 10_000).lagSeconds).toBe(40);
    const silent = NODES['node-a']!.drift![0]!;
    expect(paramsAt(silent, T)).toMatchObject({ ageSeconds: 90, relistSeconds: 1 });
    const noSince = NODES['node-b']!.drift![0]!;
    expect(paramsAt(noSince, T)).toEqual(noSince.why.params);
  });

  it('counts drift and propagating changes for a badge', () => {
    expect(badgeCounts(NODES['node-a']!.pods.u1!.drift)).toEqual({ drift: 1, propagating: 1 });
    expect(badgeCounts(undefined)).toEqual({ drift: 0, propagating: 0 });
  });

  it('says when the drift view has something to show, and how much real drift there is', () => {
    expect(driftRelevant(NODES)).toBe(true);
    expect(driftTotal(NODES)).toBe(3);
    const nodeA = NODES['node-a']!;
    const u1 = nodeA.pods.u1!;
    // No drift, but the API server's view is joined (a spec came from it): still relevant.
    const joined: Record<string, NodeView> = {
      'node-a': { ...nodeA, drift: [], pods: { u1: { ...u1, drift: [] } } },
    };
    expect(driftRelevant(joined)).toBe(true);
    expect(driftTotal(joined)).toBe(0);
    // Runtimes alone: nothing to compare with.
    const alone: Record<string, NodeView> = {
      'node-a': {
        ...nodeA,
        drift: [],
        pods: { u1: { ...u1, specSource: 'annotation', drift: [] } },
      },
    };
    expect(driftRelevant(alone)).toBe(false);
    expect(driftRelevant({})).toBe(false);
  });
});
