import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { createDemoTimeline } from '@/components/data/fixtures/demo';
import { layoutMachine } from './machine-layout';
import { findEdge, MACHINES } from './machines';
import { currentMachineState, findBySeq, lastTransition } from './transitions';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);
const tl = createDemoTimeline({ start: T0, durationMs: 8 * 60_000 });
const final = reduceAll(tl.initial, tl.events);
const api = Object.values(final.nodes['demo-node-1']?.pods ?? {}).find((p) =>
  p.name.startsWith('api-'),
);
const apiId = `${api?.uid}/api`;

describe('state machines', () => {
  it('have every edge between known states and no way out of a terminal phase', () => {
    for (const m of Object.values(MACHINES)) {
      const ids = new Set(m.states.map((s) => s.id));
      for (const e of m.edges) {
        expect(ids.has(e.from) && ids.has(e.to)).toBe(true);
        expect(m.states.find((s) => s.id === e.from)?.terminal).not.toBe(true);
      }
    }
    expect(findEdge(MACHINES.pod, 'Succeeded', 'Running')).toBeUndefined();
    expect(findEdge(MACHINES.container, 'Running', 'Terminated')?.cri).toContain('ContainerExited');
  });

  it('cover every transition the demo timeline makes', () => {
    for (const e of tl.events) {
      if (
        e.kind === 'container' &&
        e.type === 'ContainerStateChanged' &&
        e.from &&
        e.to &&
        e.from !== e.to
      ) {
        const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
        expect(
          findEdge(MACHINES.container, cap(e.from), cap(e.to)),
          `${e.from}->${e.to}`,
        ).toBeDefined();
      }
      if (e.kind === 'pod' && e.type === 'PodPhaseChanged' && e.from && e.phase) {
        expect(findEdge(MACHINES.pod, e.from, e.phase), `${e.from}->${e.phase}`).toBeDefined();
      }
    }
  });

  it('lay out states inside the box and edges as distinct curves', () => {
    for (const m of Object.values(MACHINES)) {
      const l = layoutMachine(m, 320, 170);
      for (const s of l.states) {
        expect(s.cx - s.w / 2).toBeGreaterThanOrEqual(0);
        expect(s.cx + s.w / 2).toBeLessThanOrEqual(320);
        expect(s.cy + s.h / 2).toBeLessThanOrEqual(170);
      }
      expect(new Set(l.edges.map((e) => e.d)).size).toBe(m.edges.length);
      const there = l.edges.find((e) => e.from === m.edges[0]?.from && e.to === m.edges[0]?.to);
      expect(there?.d).toMatch(/^M[\d.]+ [\d.]+ Q[\d.-]+ [\d.-]+ [\d.]+ [\d.]+$/);
    }
  });
});

describe('transitions at the cursor', () => {
  it('names the crash-looping container’s state and the CRI event behind its last change', () => {
    expect(currentMachineState(final, apiId)).toBe('Waiting');
    const last = lastTransition(tl.events, tl.events.length, apiId, 'container', (s) =>
      findBySeq(tl.events, s),
    );
    expect(last).toMatchObject({ from: 'Terminated', to: 'Waiting', label: 'CrashLoopBackOff' });
    // One step earlier in time it had just exited: the edge is labelled with the CRI event.
    const before = tl.events.findIndex((e) => e.seq === last?.seq);
    const exit = lastTransition(tl.events, before, apiId, 'container', (s) =>
      findBySeq(tl.events, s),
    );
    expect(exit).toMatchObject({ from: 'Running', to: 'Terminated', label: 'ContainerExited' });
  });

  it('reads node Ready and pod phase', () => {
    expect(currentMachineState(final, 'demo-node-1')).toBe('True');
    expect(currentMachineState(final, api?.uid ?? '')).toBe('Running');
    expect(currentMachineState(final, 'no-such-thing')).toBeUndefined();
    const phase = lastTransition(tl.events, tl.events.length, api?.uid ?? '', 'pod', (s) =>
      findBySeq(tl.events, s),
    );
    expect(phase).toMatchObject({ from: 'Pending', to: 'Running', label: 'ContainerStarted' });
  });

  it('finds events by seq', () => {
    const e = tl.events[17];
    expect(findBySeq(tl.events, e?.seq ?? -1)).toBe(e);
    expect(findBySeq(tl.events, 10 ** 9)).toBeUndefined();
  });
});

describe('attention list', () => {
  it('puts the crash loop first and lists the pull error and the OOM kill', async () => {
    const { attentionList } = await import('./attention');
    const list = attentionList(final);
    expect(list[0]).toMatchObject({ layer: 'container', reason: 'CrashLoopBackOff', id: apiId });
    const reasons = list.map((a) => a.reason);
    expect(reasons.some((r) => /ImagePullBackOff|ErrImagePull/.test(r))).toBe(true);
    expect(reasons.some((r) => r.includes('OOMKilled'))).toBe(true);
    expect(list.every((a) => a.layer !== 'node')).toBe(true);
  });
});
