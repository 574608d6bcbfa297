import { describe, expect, it } from 'vitest';
import type { ClusterState, NodeView, PodView } from '@/lib/timeline/state';
import type { Question } from './types';
import { explanations, lastRunWhy } from './explain';

const T0 = Date.UTC(2026, 0, 1);
const UID = 'pod-1';

function pod(over: Partial<PodView> = {}): PodView {
  return {
    uid: UID,
    name: 'thumbnailer-7b5d9c6f8-h3kzw',
    namespace: 'media',
    node: 'worker-1',
    specSource: 'annotation',
    spec: {
      restartPolicy: 'Always',
      initContainers: [],
      containers: ['thumbnailer'],
      hostNetwork: true,
    },
    status: { phase: 'Running' },
    why: {
      phase: { id: 'phase.running.allStarted', params: { total: 1, running: 1 } },
      conditions: {
        Ready: { id: 'condition.ready.nodeNotReady', params: { nodeStatus: 'Unknown' } },
      },
      containers: { thumbnailer: { id: 'container.running.ready' } },
    },
    createdAt: T0,
    ...over,
  };
}

function state(p: PodView, ready: 'True' | 'Unknown' = 'True'): ClusterState {
  const node: NodeView = {
    name: 'worker-1',
    endpoint: 'unix:///sim.sock',
    runtimeConditions: [],
    conditions: [{ type: 'Ready', status: ready, lastTransitionTime: new Date(T0 + 50_000) }],
    why: { Ready: { id: ready === 'True' ? 'node.ready.true' : 'node.ready.unknown' } },
    health: { connected: ready === 'True' },
    pods: { [p.uid]: p },
  };
  return { seq: 10, t: T0 + 60_000, nodes: { 'worker-1': node } };
}

describe('explanations', () => {
  it('explains an OOM kill by the run that ended (lastState), then by the state now', () => {
    const oomRun = {
      exitCode: 137,
      reason: 'OOMKilled',
      startedAt: new Date(T0 + 1_000),
      finishedAt: new Date(T0 + 6_000),
    };
    const p = pod({
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'thumbnailer',
            image: 'podscope.local/busybox:1',
            imageID: '',
            ready: true,
            restartCount: 1,
            state: { running: { startedAt: new Date(T0 + 6_000) } },
            lastState: { terminated: oomRun },
          },
        ],
      },
    });
    const q: Question = {
      kind: 'entity',
      prompt: 'p',
      hint: 'h',
      layer: 'container',
      answers: [`${UID}/thumbnailer`],
      focus: ['lastRun', 'state'],
    };
    const out = explanations(q, state(p));
    expect(out.map((b) => [b.focus, b.why.id, b.name])).toEqual([
      ['lastRun', 'container.terminated.oomKilled', 'thumbnailer'],
      ['state', 'container.running.ready', 'thumbnailer'],
    ]);
    expect(out[0]?.why.params).toMatchObject({ exitCode: 137 });
    // No previous run: nothing to say about it.
    expect(lastRunWhy(pod(), 'thumbnailer')).toBeUndefined();
  });

  it('explains a pod phase question by the pod phase, a node question by its Ready condition', () => {
    const phase: Question = {
      kind: 'state',
      prompt: 'p',
      hint: 'h',
      machine: 'pod',
      entity: UID,
      answer: 'Running',
      focus: ['phase'],
    };
    expect(explanations(phase, state(pod())).map((b) => [b.why.id, b.name])).toEqual([
      ['phase.running.allStarted', 'media/thumbnailer-7b5d9c6f8-h3kzw'],
    ]);
    const node: Question = {
      kind: 'state',
      prompt: 'p',
      hint: 'h',
      machine: 'node',
      entity: 'worker-1',
      answer: 'Unknown',
      focus: ['condition:Ready'],
    };
    expect(explanations(node, state(pod(), 'Unknown')).map((b) => b.why.id)).toEqual([
      'node.ready.unknown',
    ]);
  });

  it('explains an eviction by the taint the node got and the toleration the pod has', () => {
    const q: Question = {
      kind: 'entity',
      prompt: 'p',
      hint: 'h',
      layer: 'pod',
      answers: [UID],
      focus: ['eviction', 'condition:Ready'],
    };
    const s = state(pod({ evictionDueAt: T0 + 50_000 + 300_000 }), 'Unknown');
    const out = explanations(q, s);
    expect(out[0]?.why).toMatchObject({
      id: 'pod.eviction.due',
      params: { seconds: 300, taint: 'node.kubernetes.io/unreachable' },
    });
    expect(out[1]?.why.id).toBe('condition.ready.nodeNotReady');
    // No eviction scheduled: nothing to say about it.
    expect(explanations({ ...q, focus: ['eviction'] }, state(pod()))).toEqual([]);
  });
});
