import { describe, expect, it } from 'vitest';
import { reduceAll } from '@/lib/timeline/reducer';
import { demoTimeline } from '@/components/data/testing/demo';
import { layoutMachine } from './machine-layout';
import { findEdge, MACHINES as KUBELET } from '@/lib/kubelet/machines';
import { MACHINE_OF } from './machines';
import { currentMachineState, findBySeq, lastTransition } from './transitions';

const tl = demoTimeline();
const node1 = tl.nodes[0] ?? '';
const final = reduceAll(tl.initial, tl.events);
// The demo's crash loop: payments-worker's `worker` exits 1 after 4 s (server/demo/workload.ts).
const api = Object.values(final.nodes[node1]?.pods ?? {}).find((p) =>
  p.name.startsWith('payments-worker-'),
);
const apiId = `${api?.uid}/worker`;

describe('state machines (drawn from lib/kubelet/machines)', () => {
  it('give every state a tone and a label as the API prints it', () => {
    expect(MACHINE_OF.container.states.map((s) => `${s.label}:${s.tone}`)).toEqual([
      'Waiting:pending',
      'Running:ok',
      'Terminated:done',
    ]);
    expect(MACHINE_OF.pod.states.filter((s) => s.terminal).map((s) => s.id)).toEqual([
      'Succeeded',
      'Failed',
    ]);
    expect(MACHINE_OF.node.states.map((s) => s.tone)).toEqual(['ok', 'failed', 'unknown']);
  });

  it('cover every transition the demo timeline makes', () => {
    for (const e of tl.events) {
      if (e.kind === 'container' && e.type === 'ContainerStateChanged' && e.from && e.to) {
        expect(findEdge(KUBELET.container, e.from, e.to), `${e.from}->${e.to}`).toBeDefined();
      }
      if (e.kind === 'pod' && e.type === 'PodPhaseChanged' && e.from && e.phase) {
        expect(findEdge(KUBELET.podPhase, e.from, e.phase), `${e.from}->${e.phase}`).toBeDefined();
      }
      // A condition is also re-recorded unchanged when its heartbeat is old (node-events.ts).
      if (
        e.kind === 'node' &&
        e.type === 'NodeConditionChanged' &&
        e.condition?.type === 'Ready' &&
        e.from &&
        e.from !== e.condition.status
      ) {
        expect(
          findEdge(KUBELET.nodeReady, e.from, e.condition.status),
          `${e.from}->${e.condition.status}`,
        ).toBeDefined();
      }
    }
  });

  it('lay out states inside the box and edges (loops too) as distinct curves', () => {
    for (const m of Object.values(MACHINE_OF)) {
      const l = layoutMachine(m, 320, 140);
      for (const s of l.states) {
        expect(s.cx - s.w / 2).toBeGreaterThanOrEqual(0);
        expect(s.cx + s.w / 2).toBeLessThanOrEqual(320);
        expect(s.cy - s.h / 2).toBeGreaterThanOrEqual(0);
        expect(s.cy + s.h / 2).toBeLessThanOrEqual(140);
      }
      expect(new Set(l.edges.map((e) => e.d)).size).toBe(m.edges.length);
      for (const e of l.edges) {
        expect(e.my).toBeGreaterThanOrEqual(0);
        expect(e.my).toBeLessThanOrEqual(140);
      }
    }
    const loop = layoutMachine(MACHINE_OF.container, 320, 140).edges.find((e) => e.from === e.to);
    expect(loop?.d).toMatch(/^M[\d.]+ [\d.]+ C/);
  });
});

describe('transitions at the cursor', () => {
  it('names the crash-looping container’s state and the CRI event behind its last change', () => {
    expect(currentMachineState(final, apiId)).toBe('waiting');
    const last = lastTransition(tl.events, tl.events.length, apiId, 'container', (s) =>
      findBySeq(tl.events, s),
    );
    expect(last).toMatchObject({ from: 'terminated', to: 'waiting', label: 'CrashLoopBackOff' });
    // One step earlier in time it had just exited: the edge is labelled with the CRI event.
    const before = tl.events.findIndex((e) => e.seq === last?.seq);
    const exit = lastTransition(tl.events, before, apiId, 'container', (s) =>
      findBySeq(tl.events, s),
    );
    expect(exit).toMatchObject({ from: 'running', to: 'terminated', label: 'ContainerExited' });
  });

  it('reads node Ready and pod phase', () => {
    expect(currentMachineState(final, node1)).toBe('True');
    expect(currentMachineState(final, api?.uid ?? '')).toBe('Running');
    expect(currentMachineState(final, 'no-such-thing')).toBeUndefined();
    // A Job's pod: Running until its container exits 0.
    const report = Object.values(final.nodes)
      .flatMap((n) => Object.values(n.pods))
      .find((p) => p.name.startsWith('report-') && p.status.phase === 'Succeeded');
    expect(currentMachineState(final, report?.uid ?? '')).toBe('Succeeded');
    const phase = lastTransition(tl.events, tl.events.length, report?.uid ?? '', 'pod', (s) =>
      findBySeq(tl.events, s),
    );
    // Labelled with the CRI event the engine named as the change's cause.
    const changed = findBySeq(tl.events, phase?.seq ?? -1);
    const cause = findBySeq(tl.events, changed?.cause ?? -1);
    expect(cause).toMatchObject({ kind: 'cri', podUid: report?.uid });
    expect(phase).toMatchObject({ from: 'Running', to: 'Succeeded', label: cause?.type });
  });

  it('finds events by seq', () => {
    const e = tl.events[17];
    expect(findBySeq(tl.events, e?.seq ?? -1)).toBe(e);
    expect(findBySeq(tl.events, 10 ** 9)).toBeUndefined();
  });
});

describe('attention list', () => {
  it('puts the crash loops first and lists the pull error and the OOM kill', async () => {
    const { attentionList } = await import('./attention');
    const list = attentionList(final);
    // payments-worker exits 1, inventory fails its liveness probe: both back off.
    expect(list[0]).toMatchObject({ layer: 'container', reason: 'CrashLoopBackOff' });
    expect(list.slice(0, 2).map((a) => a.id)).toContain(apiId);
    expect(list.slice(0, 2).every((a) => a.reason === 'CrashLoopBackOff')).toBe(true);
    const reasons = list.map((a) => a.reason);
    expect(reasons.some((r) => /ImagePullBackOff|ErrImagePull/.test(r))).toBe(true);
    expect(reasons.some((r) => r.includes('OOMKilled'))).toBe(true);
    expect(list.every((a) => a.layer !== 'node')).toBe(true);
  });
});
