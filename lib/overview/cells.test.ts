import { describe, expect, it } from 'vitest';
import { cellOf, healthName, LabelDictionary, nodeFacts, podRow, RESTART_WINDOW_MS } from './cells';
import { node, pod, type PodSpec } from './testing/fixtures';
import { PRESSURE_BITS } from './wire';

const NOW = 1_000_000;

describe('podRow health (POD_HEALTH in wire.ts)', () => {
  const cases: [string, PodSpec, string, string][] = [
    ['running and ready', {}, 'ok', ''],
    ['succeeded', { phase: 'Succeeded', ready: false }, 'ok', ''],
    [
      'crash loop',
      { containers: ['CrashLoopBackOff'], ready: false },
      'failing',
      'CrashLoopBackOff',
    ],
    [
      'image pull back-off',
      { phase: 'Pending', containers: ['ImagePullBackOff'] },
      'failing',
      'ImagePullBackOff',
    ],
    [
      'err image pull',
      { phase: 'Pending', containers: ['ErrImagePull'] },
      'failing',
      'ErrImagePull',
    ],
    [
      'create container error',
      { containers: ['CreateContainerError'], ready: false },
      'failing',
      'CreateContainerError',
    ],
    [
      'failed',
      { phase: 'Failed', ready: false, containers: ['terminated:Error'] },
      'failing',
      'Error',
    ],
    [
      'evicted',
      { phase: 'Failed', reason: 'Evicted', ready: false, containers: [] },
      'failing',
      'Evicted',
    ],
    [
      'running not ready',
      { ready: false, readyReason: 'ContainersNotReady' },
      'warning',
      'ContainersNotReady',
    ],
    [
      'marked by the node lifecycle',
      { ready: false, readyReason: 'NodeNotReady' },
      'warning',
      'NodeNotReady',
    ],
    ['restarted in the window', { restartedAt: NOW - 1_000 }, 'warning', 'Error'],
    ['restarted long ago', { restartedAt: NOW - RESTART_WINDOW_MS - 1 }, 'ok', ''],
    [
      'pending, creating',
      { phase: 'Pending', containers: ['ContainerCreating'] },
      'pending',
      'ContainerCreating',
    ],
    ['pending, no sandbox yet', { phase: 'Pending', containers: [] }, 'pending', 'Pending'],
    ['unknown phase', { phase: 'Unknown', ready: false }, 'warning', 'Unknown'],
  ];
  it.each(cases)('%s', (_name, spec, health, reason) => {
    const row = podRow(pod(spec), NOW);
    expect(healthName(row.health)).toBe(health);
    expect(row.reason).toBe(reason);
  });

  it('a restart that decides the health says until when', () => {
    const row = podRow(pod({ restartedAt: NOW - 1_000 }), NOW);
    expect(row.until).toBe(NOW - 1_000 + RESTART_WINDOW_MS);
    expect(podRow(pod({}), NOW).until).toBeUndefined();
  });

  it('collects states and every reason', () => {
    const row = podRow(
      pod({ containers: ['running', 'CrashLoopBackOff', 'terminated:OOMKilled'], ready: false }),
      NOW,
    );
    expect(row.states).toBe(7);
    expect(row.reasons).toEqual(['CrashLoopBackOff', 'OOMKilled']);
    expect(row.containers).toBe(3);
  });
});

describe('nodeFacts and cellOf', () => {
  it.each([
    ['ready', { ready: 'True' }, 'True', 0, ''],
    [
      'lost contact',
      { ready: 'Unknown', readyReason: 'NodeStatusUnknown' },
      'Unknown',
      0,
      'NodeStatusUnknown',
    ],
    ['not ready, no reason', { ready: 'False' }, 'False', 0, 'Ready=False'],
    ['no Ready condition yet', { ready: '' }, '', 0, ''],
    [
      'memory and disk pressure',
      { pressure: ['MemoryPressure', 'DiskPressure'] },
      'True',
      3,
      'MemoryPressure',
    ],
    [
      'network unavailable',
      { pressure: ['NetworkUnavailable'] },
      'True',
      PRESSURE_BITS.NetworkUnavailable,
      'NetworkUnavailable',
    ],
  ] as const)('%s', (_n, spec, ready, pressure, reason) => {
    const f = nodeFacts(node(spec));
    expect(f.ready).toBe(ready);
    expect(f.pressure).toBe(pressure);
    expect(f.reason).toBe(reason);
  });

  it('takes the group labels the node carries, and no others', () => {
    const f = nodeFacts(node({ labels: { 'topology.kubernetes.io/zone': 'b', app: 'x' } }));
    expect(f.groups).toEqual({ 'topology.kubernetes.io/zone': 'b' });
  });

  it('a label named __proto__ or constructor is a value like any other', () => {
    const labels = JSON.parse(
      '{"__proto__": "x", "podscope.dev/pool": "<img src=x onerror=alert(1)>"}',
    ) as Record<string, string>;
    const f = nodeFacts(node({ labels }));
    expect(f.groups).toEqual({ 'podscope.dev/pool': '<img src=x onerror=alert(1)>' });
  });

  it('the cell is the worst of its pods, counting not-ready pods', () => {
    const n = node({
      pods: [
        pod({ uid: 'a' }),
        pod({ uid: 'b', ready: false }),
        pod({ uid: 'c', phase: 'Pending', containers: [] }),
      ],
    });
    const rows = Object.values(n.pods).map((p) => podRow(p, NOW));
    expect(cellOf(nodeFacts(n), rows)).toEqual({
      ready: 'True',
      health: 3,
      pressure: 0,
      pods: 3,
      notReady: 2,
    });
    expect(cellOf(nodeFacts(node()), []).health).toBe(0);
  });
});

describe('LabelDictionary', () => {
  it('keeps indices and hands over what was added', () => {
    const d = new LabelDictionary();
    expect(d.encode('zone', 'a')).toBe(0);
    expect(d.encode('zone', 'b')).toBe(1);
    expect(d.encode('zone', 'a')).toBe(0);
    expect(d.encode('pool', 'p')).toBe(0);
    expect([...d.takeAdded()]).toEqual([
      ['zone', ['a', 'b']],
      ['pool', ['p']],
    ]);
    d.encode('zone', 'c');
    expect([...d.takeAdded()]).toEqual([['zone', ['c']]]);
    expect(d.values('zone')).toEqual(['a', 'b', 'c']);
  });
});
