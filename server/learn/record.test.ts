/**
 * Recordings of real scenario runs (simulated node over gRPC, driver, engine, manual clock):
 * each replays to states where every step's expectations hold at the step's moment, the
 * questions' answers come from that state, and a second run records the same thing.
 */
import { describe, expect, it } from 'vitest';
import { check } from '@/server/scenarios/evaluate';
import { findScenario } from '@/server/scenarios/library';
import type { Scenario } from '@/server/scenarios/schema';
import { contextAt, momentAt, moments } from './derive';
import { recordScenario } from './record';
import { recordingShape as shape } from './testing/shape';
import { verifyRecording } from './verify';
import { formatExplanation } from '@/lib/i18n/format';
import type { Explanation } from '@/lib/kubelet/explanation';
import { writerOf } from '@/lib/kubelet/writers';

function scenario(id: string): Scenario {
  const s = findScenario(id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
}

describe('recordScenario', () => {
  it(
    'not-ready-vs-lost: at NotReady the pod keeps the kubelet’s Ready, when lost the controller marks it — each explained and attributed, in both languages',
    { timeout: 60_000 },
    async () => {
      const s = scenario('not-ready-vs-lost');
      const r = await recordScenario(s);
      expect(verifyRecording(s, r)).toEqual([]);
      const ms = moments(r.initial, r.events);
      const readyAt = (key: string) => {
        const step = r.steps.find((x) => x.key === key);
        const m = step ? momentAt(ms, step.t) : undefined;
        const pod = Object.values(m?.state.nodes[r.node]?.pods ?? {})[0];
        return {
          status: pod?.status.conditions?.find((c) => c.type === 'Ready')?.status,
          why: pod?.why.conditions.Ready,
        };
      };
      const notReady = readyAt('notReady');
      expect(notReady.status).toBe('True');
      expect(notReady.why).toMatchObject({
        id: 'condition.ready.kubeletReportsNodeNotReady',
        params: { cause: 'networkNotReady' },
      });
      expect(writerOf(notReady.why)).toBe('kubelet');
      expect(formatExplanation(notReady.why as Explanation, 'en')).toContain(
        'the kubelet still reports this pod; the node is NotReady because the container runtime network is not ready — the controller taints the node, it does not mark its pods',
      );
      expect(formatExplanation(notReady.why as Explanation, 'zh-CN')).toContain(
        '容器运行时网络未就绪',
      );
      const lost = readyAt('lost');
      expect(lost.status).toBe('False');
      expect(lost.why?.id).toBe('condition.ready.nodeNotReady');
      expect(writerOf(lost.why)).toBe('nodeLifecycleController');
      expect(readyAt('back').status).toBe('True');
    },
  );

  it(
    'records oomkilled: four steps, each replaying to its expected outcome',
    { timeout: 60_000 },
    async () => {
      const s = scenario('oomkilled');
      const r = await recordScenario(s);
      expect(verifyRecording(s, r)).toEqual([]);
      expect(r.steps.map((x) => x.key)).toEqual(['apply', 'killed', 'backoff', 'takeaway']);
      expect(r.events.length).toBeGreaterThan(0);
      expect(r.events.every((e) => e.seq > r.initial.seq && e.t <= r.end)).toBe(true);

      // Independently of verifyRecording: replay to each step's moment and run the runner's check().
      const ms = moments(r.initial, r.events);
      for (const step of r.steps) {
        const m = momentAt(ms, step.t);
        expect(m, step.key).toBeDefined();
        if (!m) continue;
        for (const e of step.expectations)
          expect(check(contextAt(s, r.node, m), e).ok, step.key).toBe(true);
      }
      // Moments move forward, and each step's moment is not before it began.
      for (const [i, step] of r.steps.entries()) {
        expect(step.t).toBeGreaterThanOrEqual(step.startedAt);
        if (i > 0) expect(step.t).toBeGreaterThanOrEqual(r.steps[i - 1]?.t ?? 0);
      }

      const uid = r.pods.thumbnailer;
      expect(uid).toBeDefined();
      const killed = r.steps[1]?.question;
      expect(killed).toMatchObject({
        kind: 'entity',
        layer: 'container',
        answers: [`${uid}/thumbnailer`],
        focus: ['lastRun', 'state'],
      });
      // The step's moment is the first one showing the OOM kill: just before it, lastState is empty.
      const before = momentAt(ms, (r.steps[1]?.t ?? 0) - 1);
      const status = before?.state.nodes[r.node]?.pods[uid ?? '']?.status.containerStatuses?.[0];
      expect(status?.lastState?.terminated?.reason).not.toBe('OOMKilled');
      // CrashLoopBackOff is a container's waiting reason; the pod's phase stays Running.
      expect(r.steps[2]?.question).toMatchObject({
        kind: 'state',
        machine: 'pod',
        entity: uid,
        answer: 'Running',
      });
      // The step is about the container; its question, about the pod.
      expect(r.steps[2]?.entities).toEqual([`${uid}/thumbnailer`, uid]);
      // Narration keeps looking at what the step before it was about.
      expect(r.steps[3]?.entities).toEqual(r.steps[2]?.entities);
      expect(r.steps[3]?.question).toBeUndefined();
    },
  );

  it(
    'is deterministic: the same scenario records the same events and steps',
    { timeout: 60_000 },
    async () => {
      const s = scenario('graceful-termination');
      const a = await recordScenario(s);
      const b = await recordScenario(s);
      expect(shape(b)).toEqual(shape(a));
    },
  );
});
