/**
 * What an update event says, in words: a pod's patch ("IP 10.0.0.4 assigned", "worker: next
 * restart in 40 s", "spec from the API server") and a node's ("runtime containerd 1.7.24").
 * Field names stay out of the log. Some updates are the timeline's bookkeeping — an explanation
 * reworded, a timer cleared, a copy of what a CRI event already said — and are hidden unless
 * the reader asks for them.
 */
import type { NodeEvent, PodPatch, TimelineEvent } from '@/lib/timeline/events';
import { formatDuration } from '@/components/visual/duration';
import type { Tone } from '@/components/visual/palette';

export interface Phrase {
  /** Catalogue key under `ui.log.what`. */
  key: string;
  values?: Record<string, string | number>;
  /** Values that are durations in ms, written in the reader's words when shown. */
  durations?: Record<string, number>;
  /** Bookkeeping: true to what the state says, but nothing a reader follows. */
  bookkeeping?: boolean;
  /** The state it points to, when it points to one (a back-off is waiting, drift is a failure). */
  tone?: Tone;
}

const MAX_TEXT = 160;
const short = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

/** The phrases of a pod's patch, at the event's time `t` (for "in 40 s"). */
export function podPatchPhrases(patch: PodPatch, t: number): Phrase[] {
  const out: Phrase[] = [];
  if (patch.specSource) out.push({ key: 'specFrom', values: { source: patch.specSource } });
  else if (patch.spec) out.push({ key: 'specUpdated' });
  const s = patch.status;
  if (s) {
    const before = out.length;
    if ('podIP' in s)
      out.push(
        s.podIP ? { key: 'podIP', values: { ip: s.podIP }, tone: 'ok' } : { key: 'podIPReleased' },
      );
    else if (s.podIPs)
      out.push({ key: 'podIPs', values: { ips: s.podIPs.map((p) => p.ip).join(', ') } });
    if (s.hostIP) out.push({ key: 'hostIP', values: { ip: s.hostIP } });
    if (s.qosClass) out.push({ key: 'qosClass', values: { qos: s.qosClass } });
    if (s.startTime) out.push({ key: 'startTime' });
    if ('reason' in s)
      out.push(
        s.reason ? { key: 'podReason', values: { reason: s.reason } } : { key: 'podReasonCleared' },
      );
    if (s.message) out.push({ key: 'podMessage', values: { message: short(s.message) } });
    // podIPs / hostIPs beside podIP / hostIP only repeat them.
    if (out.length === before && s.hostIPs) out.push({ key: 'hostIPs', bookkeeping: true });
  }
  if (patch.nextRestartAt === null) out.push({ key: 'backoffOver', bookkeeping: true });
  else if (patch.nextRestartAt)
    for (const [container, at] of Object.entries(patch.nextRestartAt).sort(([a], [b]) =>
      a.localeCompare(b),
    ))
      out.push({
        key: 'nextRestart',
        tone: 'pending',
        values: { container },
        durations: { in: Math.max(0, at - t) },
      });
  if (patch.evictionDueAt === null) out.push({ key: 'evictionCancelled' });
  else if (patch.evictionDueAt !== undefined)
    out.push({
      key: 'evictionIn',
      tone: 'failed',
      durations: { in: Math.max(0, patch.evictionDueAt - t) },
    });
  if (patch.deletionTimestamp === null) out.push({ key: 'deletionCancelled' });
  else if (patch.deletionTimestamp !== undefined) out.push({ key: 'deleting', tone: 'pending' });
  if (patch.drift !== undefined)
    out.push(
      patch.drift && patch.drift.length > 0
        ? { key: 'drift', values: { count: patch.drift.length }, tone: 'failed' }
        : { key: 'driftCleared', tone: 'ok' },
    );
  if (patch.whyPhase) out.push({ key: 'whyPhase', bookkeeping: true });
  return out;
}

/** The phrases of a node update that is not about the connection (that one has its own words). */
export function nodeUpdatePhrases(e: NodeEvent): Phrase[] {
  const out: Phrase[] = [];
  if (e.runtime)
    out.push({
      key: 'runtime',
      tone: 'ok',
      values: { runtime: `${e.runtime.name} ${e.runtime.version}` },
    });
  // The RuntimeConditionChanged CRI event beside it already says what changed.
  if (e.runtimeConditions)
    out.push({
      key: 'runtimeConditions',
      values: {
        conditions: e.runtimeConditions.map((c) => `${c.type}=${String(c.status)}`).join(' '),
      },
      bookkeeping: true,
    });
  if (e.drift !== undefined)
    out.push(
      e.drift && e.drift.length > 0
        ? { key: 'drift', values: { count: e.drift.length }, tone: 'failed' }
        : { key: 'driftCleared', tone: 'ok' },
    );
  return out;
}

/** The words of an update event; undefined for every other kind. */
export function updatePhrases(e: TimelineEvent): Phrase[] | undefined {
  if (e.kind === 'pod' && e.type === 'PodUpdated') return podPatchPhrases(e.patch ?? {}, e.t);
  if (e.kind === 'node' && e.type === 'NodeUpdated' && !e.health) return nodeUpdatePhrases(e);
  return undefined;
}

/** Whether an event is bookkeeping only: everything it says is. */
export function isBookkeeping(e: TimelineEvent): boolean {
  const phrases = updatePhrases(e);
  return phrases !== undefined && phrases.every((p) => p.bookkeeping === true);
}

/** Phrases as one line of text, through the `ui.log` catalogue's `t`. */
export function sayPhrases(
  phrases: readonly Phrase[],
  t: (key: string, values?: Record<string, string | number>) => string,
  locale: string,
): string {
  return phrases
    .map((p) => {
      const values: Record<string, string | number> = { ...p.values };
      for (const [k, ms] of Object.entries(p.durations ?? {}))
        values[k] = formatDuration(ms, locale);
      return t(`what.${p.key}`, values);
    })
    .join(t('what.separator'));
}
