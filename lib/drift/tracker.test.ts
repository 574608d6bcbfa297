import { describe, expect, it } from 'vitest';
import { N, onePod, s, side } from './testing/cases';
import { DriftTracker } from './tracker';

describe('DriftTracker', () => {
  // A phase disagreement carries no timestamp of its own: only first-seen can age it.
  const disagree = onePod(side({ phase: 'Pending' }), side({}));
  const agree = onePod(side({}), side({}));

  it('ages a disagreement from propagating into drift after the pod tolerance (5 s)', () => {
    const tracker = new DriftTracker();
    const at = (t: number) => tracker.detect(disagree.api, disagree.nodes, s(t)).pods['u-web']?.[0];
    expect(at(100)).toMatchObject({ status: 'propagating', since: s(100) });
    expect(at(104)).toMatchObject({ status: 'propagating', since: s(100) });
    expect(at(105)).toMatchObject({ status: 'drift', since: s(100) });
    expect(tracker.size).toBe(1);
  });

  it('forgets a resolved disagreement; when it returns it starts young again', () => {
    const tracker = new DriftTracker();
    tracker.detect(disagree.api, disagree.nodes, s(100));
    expect(tracker.detect(disagree.api, disagree.nodes, s(110)).pods['u-web']?.[0]?.status).toBe(
      'drift',
    );
    expect(tracker.detect(agree.api, agree.nodes, s(111)).pods['u-web']).toBeUndefined();
    expect(tracker.size).toBe(0);
    expect(tracker.detect(disagree.api, disagree.nodes, s(112)).pods['u-web']?.[0]).toMatchObject({
      status: 'propagating',
      since: s(112),
    });
  });

  it('honours a configured tolerance', () => {
    const tracker = new DriftTracker({ podToleranceMs: 30_000 });
    tracker.detect(disagree.api, disagree.nodes, s(100));
    expect(tracker.detect(disagree.api, disagree.nodes, s(120)).pods['u-web']?.[0]?.status).toBe(
      'propagating',
    );
    expect(tracker.detect(disagree.api, disagree.nodes, s(130)).pods['u-web']?.[0]?.status).toBe(
      'drift',
    );
  });

  it('keys node drift by node, so another node’s drift does not share its age', () => {
    const tracker = new DriftTracker();
    const first = tracker.detect(disagree.api, disagree.nodes, s(100));
    expect(Object.keys(first.pods)).toEqual(['u-web']);
    expect(first.pods['u-web']?.[0]?.node).toBe(N);
  });
});
