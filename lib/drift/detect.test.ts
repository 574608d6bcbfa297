/**
 * Table tests: one case per kind of drift (and per explanation), plus the cases that must NOT
 * be drift (agreement, terminal pods gone, conditions only one side has, nodes outside the
 * cluster). Each case builds both sides and checks the drifts found for the entity under test.
 */
import { describe, expect, it } from 'vitest';
import type { ApiObjects } from './api';
import { cases, N, onePod, s, side } from './testing/cases';
import { detectClusterDrift } from './detect';
import type { Drift } from './types';
import { apiNode, nodeView, podView, waiting } from './testing/fixtures';

function driftsOf(result: ReturnType<typeof detectClusterDrift>, entity: string): Drift[] {
  return entity.startsWith('node:')
    ? (result.nodes[entity.slice(5)] ?? [])
    : (result.pods[entity] ?? []);
}

describe('detectClusterDrift', () => {
  it.each(cases)('$name', (c) => {
    const result = detectClusterDrift({
      api: c.api,
      nodes: c.nodes,
      now: c.now,
      options: c.options,
      firstSeen: c.firstSeen,
    });
    const got = driftsOf(result, c.entity);
    expect(got).toHaveLength(c.expect.length);
    c.expect.forEach((want, i) => {
      const d = got[i]!;
      const { whyId, ...fields } = want;
      expect(d).toMatchObject(fields);
      if (whyId) expect(d.why.id).toBe(whyId);
    });
  });

  it('gives the lag of a stale status in seconds', () => {
    const c = cases[1]!;
    const d = driftsOf(detectClusterDrift({ api: c.api, nodes: c.nodes, now: c.now }), 'u-web')[0]!;
    expect(d.why.params).toMatchObject({
      container: 'app',
      lagSeconds: 30,
      exitCode: 1,
      apiState: 'Running',
    });
  });

  it('ignores nodes the API server does not know (not part of this cluster)', () => {
    const api: ApiObjects = { pods: [], nodes: [apiNode('other')], leases: [] };
    const nodes = { sim: nodeView('sim', [podView(side({ node: 'sim' }))]) };
    expect(detectClusterDrift({ api, nodes, now: s(100) })).toEqual({ pods: {}, nodes: {} });
  });

  it('ages a disagreement without evidence from when it was first seen', () => {
    const c = onePod(side({ phase: 'Pending' }), side({}));
    const key = `${N}|u-web||phaseMismatch|status.phase`;
    const young = detectClusterDrift({ ...c, now: s(100), firstSeen: new Map([[key, s(98)]]) });
    const old = detectClusterDrift({ ...c, now: s(100), firstSeen: new Map([[key, s(90)]]) });
    expect(young.pods['u-web']?.[0]).toMatchObject({ status: 'propagating', since: s(98) });
    expect(old.pods['u-web']?.[0]).toMatchObject({ status: 'drift', since: s(90) });
  });

  it('bounds reasons taken from either side', () => {
    const long = 'R'.repeat(5_000);
    const c = onePod(
      side({ containers: [waiting('app', long)] }),
      side({ containers: [waiting('app', 'ImagePullBackOff')] }),
    );
    const d = detectClusterDrift({ ...c, now: s(100) }).pods['u-web']?.[0];
    expect(d?.api).toBe(`Waiting: ${'R'.repeat(128)}…`);
  });
});
