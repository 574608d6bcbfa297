import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { PodEvent, PodPatch, TimelineEvent } from '@/lib/timeline/events';
import { messagesFor } from '@/lib/i18n/messages';
import type { Locale } from '@/lib/i18n/locales';
import { demoTimeline } from '@/components/data/testing/demo';
import { describeEvent } from './describe';
import { isBookkeeping, podPatchPhrases, sayPhrases } from './phrases';

const T = Date.UTC(2026, 10, 29, 9, 0, 0);

type Translate = Parameters<typeof sayPhrases>[1];
const translator = (locale: Locale) =>
  createTranslator({
    locale,
    messages: messagesFor(locale),
    namespace: 'ui.log',
  }) as unknown as Translate;

function say(patch: PodPatch, locale: Locale = 'en'): string {
  return sayPhrases(podPatchPhrases(patch, T), translator(locale), locale);
}

const podUpdate = (patch: PodPatch): PodEvent => ({
  seq: 1,
  t: T,
  node: 'n1',
  kind: 'pod',
  type: 'PodUpdated',
  podUid: 'u1',
  patch,
});

describe('pod updates in words', () => {
  it('say what changed, never which field', () => {
    expect(say({ nextRestartAt: { worker: T + 40_000 } })).toBe('worker: next restart in 40 sec');
    expect(say({ status: { podIP: '10.0.0.4', podIPs: [{ ip: '10.0.0.4' }] } })).toBe(
      'IP 10.0.0.4 assigned',
    );
    expect(say({ specSource: 'apiserver', spec: { restartPolicy: 'Always' } as never })).toBe(
      'spec from the API server',
    );
    expect(say({ evictionDueAt: T + 300_000 })).toBe('due for eviction in 5 min');
    expect(say({ status: { qosClass: 'Burstable' }, deletionTimestamp: T })).toBe(
      'QoS class Burstable; deletion requested: graceful termination',
    );
    expect(say({ nextRestartAt: { worker: T + 40_000 } }, 'zh-CN')).toBe('worker：40秒后重启');
    expect(say({ specSource: 'annotation' }, 'zh-CN')).toBe('spec 来自 pod-spec 注解');
  });

  it('mark the timeline’s own bookkeeping, and only that', () => {
    const why = { id: 'phase.running' } as PodPatch['whyPhase'];
    expect(isBookkeeping(podUpdate({ whyPhase: why }))).toBe(true);
    expect(isBookkeeping(podUpdate({ nextRestartAt: null, whyPhase: why }))).toBe(true);
    expect(isBookkeeping(podUpdate({ nextRestartAt: { worker: T + 10_000 }, whyPhase: why }))).toBe(
      false,
    );
    expect(isBookkeeping(podUpdate({ status: { podIP: '10.0.0.4' } }))).toBe(false);
    const exit: TimelineEvent = {
      ...podUpdate({}),
      kind: 'cri',
      type: 'ContainerExited',
      source: 'relist',
    };
    expect(isBookkeeping(exit)).toBe(false);
  });

  it('leave no field name in any row of the demo’s log, in either language', () => {
    const tl = demoTimeline();
    const fieldNames =
      /\b(whyPhase|nextRestartAt|evictionDueAt|deletionTimestamp|specSource|runtimeConditions)\b/;
    for (const locale of ['en', 'zh-CN'] as const) {
      const t = translator(locale);
      for (const e of tl.events) {
        const row = describeEvent(e, () => undefined);
        const text = row.change ?? sayPhrases(row.what ?? [], t, locale);
        expect(text, `${e.kind} ${e.type}`).not.toMatch(fieldNames);
        expect(text.length, `${e.kind} ${e.type}`).toBeGreaterThan(0);
      }
    }
  });
});
