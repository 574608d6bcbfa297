import { describe, expect, it } from 'vitest';
import { nodeFacts, podRow } from './cells';
import { ChangeLog, transitions, type Transition } from './changes';
import { node, pod, type NodeSpec } from './testing/fixtures';
import { CHANGE_WINDOW_MS, MEMBERS_SHOWN } from './wire';

const entry = (spec: NodeSpec) => {
  const n = node(spec);
  return { facts: nodeFacts(n), rows: Object.values(n.pods).map((p) => podRow(p, 1_000)) };
};
const zone = { 'topology.kubernetes.io/zone': 'b' };

describe('transitions', () => {
  it('a node losing contact, a pod crashing, a pod phase', () => {
    const before = entry({
      name: 'n',
      labels: zone,
      pods: [
        pod({ uid: '1', name: 'a' }),
        pod({ uid: '2', name: 'b', phase: 'Pending', containers: [] }),
      ],
    });
    const after = entry({
      name: 'n',
      ready: 'Unknown',
      labels: zone,
      pods: [
        pod({ uid: '1', name: 'a', containers: ['CrashLoopBackOff'], ready: false }),
        pod({ uid: '2', name: 'b' }),
      ],
    });
    expect(transitions(before, after, 5).map((t) => [t.what, t.to, t.member, t.group])).toEqual([
      ['node.ready', 'Unknown', 'n', 'topology.kubernetes.io/zone=b'],
      ['pod.reason', 'CrashLoopBackOff', 'default/a', 'topology.kubernetes.io/zone=b'],
      ['pod.phase', 'Running', 'default/b', 'topology.kubernetes.io/zone=b'],
    ]);
  });

  it('a new or gone node is no transition', () => {
    expect(transitions(undefined, entry({}), 1)).toEqual([]);
    expect(transitions(entry({}), undefined, 1)).toEqual([]);
  });

  it('pressure gained', () => {
    expect(
      transitions(entry({}), entry({ pressure: ['DiskPressure'] }), 1).map((t) => t.to),
    ).toEqual(['DiskPressure']);
  });
});

describe('ChangeLog', () => {
  const lost = (member: string, t: number, group = 'zone=b'): Transition => ({
    kind: 'node',
    what: 'node.ready',
    to: 'Unknown',
    member,
    group,
    t,
  });

  it('200 nodes lost in one zone within a minute are one group', () => {
    const log = new ChangeLog();
    for (let i = 0; i < 200; i++) log.add(lost(`n${i}`, 1_000 + i * 100));
    const [g, ...rest] = log.list();
    expect(rest).toEqual([]);
    expect(g?.count).toBe(200);
    expect(g?.members).toHaveLength(MEMBERS_SHOWN);
    expect(g?.from).toBe(1_000);
    expect(g?.until).toBe(1_000 + 199 * 100);
    expect(g?.group).toBe('zone=b');
    expect(g?.query).toBe(`change:${g?.id}`);
    expect(log.members(g?.id ?? '')?.members.size).toBe(200);
  });

  it('another zone, another transition or past the window is another group', () => {
    const log = new ChangeLog();
    log.add(lost('a', 0));
    log.add(lost('a', 5));
    log.add(lost('b', 10, 'zone=c'));
    log.add({ ...lost('c', 20), to: 'True' });
    log.add(lost('d', CHANGE_WINDOW_MS + 1));
    expect(log.list().map((g) => [g.group, g.to, g.count])).toEqual([
      ['zone=b', 'Unknown', 1],
      ['zone=b', 'True', 1],
      ['zone=c', 'Unknown', 1],
      ['zone=b', 'Unknown', 1],
    ]);
  });

  it('keeps the newest groups only', () => {
    const log = new ChangeLog({ keep: 2 });
    log.add(lost('a', 0, 'x'));
    log.add(lost('b', 1, 'y'));
    const first = log.list()[1]?.id ?? '';
    log.add(lost('c', 2, 'z'));
    expect(log.list()).toHaveLength(2);
    expect(log.members(first)).toBeUndefined();
    log.add(lost('d', 3, 'x'));
    expect(log.list().map((g) => g.group)).toEqual(['x', 'z']);
  });
});
