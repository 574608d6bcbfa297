/**
 * One log row's content, from an event: the object it is about, the change in Kubernetes' own
 * words (Waiting → Running, Ready: True → Unknown, ContainerExited exit_code=1), its reason and
 * its tone in the palette. Words that are not Kubernetes terms are message keys, not text.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { conditionTone, containerTone } from '@/components/data/entity';
import type { Tone } from '@/components/visual/palette';
import { eventContainer, eventPod, eventReason } from './filter';
import { nodeUpdatePhrases, podPatchPhrases, type Phrase } from './phrases';

const words = (...phrases: Phrase[]): Phrase[] => phrases;

export interface Row {
  seq: number;
  t: number;
  kind: TimelineEvent['kind'];
  node: string;
  /** `namespace/name` of the pod, if the event is about one (and we know its name). */
  pod?: string;
  container?: string;
  /** The change in Kubernetes terms, when it has one. */
  change?: string;
  /** The change in words (catalogue keys under ui.log.what), when it has no Kubernetes notation. */
  what?: Phrase[];
  /** Only the timeline's bookkeeping (hidden from the log unless asked for). */
  bookkeeping?: boolean;
  reason?: string;
  tone: Tone;
  /** The data-id of the entity to select when the row is clicked. */
  entity: string;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const phaseTone = (phase: string | undefined): Tone =>
  phase === 'Running'
    ? 'ok'
    : phase === 'Pending'
      ? 'pending'
      : phase === 'Succeeded'
        ? 'done'
        : phase === 'Failed'
          ? 'failed'
          : 'unknown';

function criDetail(e: Extract<TimelineEvent, { kind: 'cri' }>): string {
  const pairs = Object.entries(e.detail ?? {})
    .filter(([k]) => k !== 'state' && k !== 'error')
    .map(([k, v]) => `${k}=${String(v)}`);
  return pairs.length > 0 ? `${e.type} ${pairs.join(' ')}` : e.type;
}

export function describeEvent(e: TimelineEvent, podName: (uid: string) => string | undefined): Row {
  const podUid = eventPod(e);
  const container = eventContainer(e);
  const reason = eventReason(e);
  const base = {
    seq: e.seq,
    t: e.t,
    kind: e.kind,
    node: e.node,
    ...(podUid && podName(podUid) ? { pod: podName(podUid) } : {}),
    ...(container ? { container } : {}),
    ...(reason ? { reason } : {}),
    entity: podUid ? (container ? `${podUid}/${container}` : podUid) : e.node,
  };
  switch (e.kind) {
    case 'container':
      if (e.type === 'ContainerRemoved')
        return { ...base, what: words({ key: 'containerRemoved' }), tone: 'unknown' };
      return {
        ...base,
        ...(e.from && e.to
          ? {
              // The same state again is a new run (or a new reason): say which.
              change:
                e.from === e.to && e.status
                  ? `${cap(e.from)} → ${cap(e.to)} restartCount=${e.status.restartCount}`
                  : `${cap(e.from)} → ${cap(e.to)}`,
            }
          : e.status
            ? // Not a new state: readiness, the started flag or the restart count moved.
              {
                change: `ready=${String(e.status.ready)} started=${String(e.status.started ?? false)} restartCount=${e.status.restartCount}`,
              }
            : { what: words({ key: 'statusChanged' }) }),
        tone: containerTone(e.status),
      };
    case 'pod':
      switch (e.type) {
        case 'PodPhaseChanged':
          return {
            ...base,
            change: `${e.from ?? '—'} → ${e.phase ?? '—'}`,
            tone: phaseTone(e.phase),
          };
        case 'PodConditionChanged': {
          const c = e.condition;
          const tone: Tone =
            c?.status === 'True' ? 'ok' : c?.status === 'False' ? 'failed' : 'unknown';
          return {
            ...base,
            change: `${c?.type ?? '?'}: ${e.from ?? '—'} → ${c?.status ?? '—'}`,
            tone,
          };
        }
        case 'PodAdded':
          return {
            ...base,
            what: words({ key: 'podAdded' }),
            tone: phaseTone(e.pod?.status.phase),
          };
        case 'PodRemoved':
          return { ...base, what: words({ key: 'podRemoved' }), tone: 'unknown' };
        case 'PodUpdated':
          return { ...base, ...phrased(podPatchPhrases(e.patch ?? {}, e.t)) };
      }
      break;
    case 'node':
      switch (e.type) {
        case 'NodeConditionChanged': {
          const c = e.condition;
          return {
            ...base,
            change: `${c?.type ?? '?'}: ${e.from ?? '—'} → ${c?.status ?? '—'}`,
            tone: c ? conditionTone(c) : 'unknown',
          };
        }
        case 'NodeAdded':
          return { ...base, what: words({ key: 'nodeAdded' }), tone: 'ok' };
        case 'NodeRemoved':
          return { ...base, what: words({ key: 'nodeRemoved' }), tone: 'unknown' };
        case 'NodeUpdated':
          if (!e.health) return { ...base, ...phrased(nodeUpdatePhrases(e)) };
          return {
            ...base,
            what: words(
              e.health.connected
                ? { key: 'nodeConnected' }
                : e.health.lastError
                  ? { key: 'nodeDisconnected', values: { error: e.health.lastError } }
                  : // Added, not yet dialled.
                    { key: 'nodeConnecting' },
            ),
            tone: e.health.connected ? 'ok' : e.health.lastError ? 'failed' : 'pending',
          };
      }
      break;
    case 'cri': {
      const exit = e.detail?.exit_code;
      const tone: Tone =
        e.type === 'ContainerExited'
          ? exit === 0
            ? 'done'
            : 'failed'
          : e.type === 'RelistFailed'
            ? 'failed'
            : e.type === 'ContainerStarted' ||
                e.type === 'SandboxReady' ||
                e.type === 'RelistRecovered'
              ? 'ok'
              : 'unknown';
      return { ...base, change: criDetail(e), tone };
    }
    case 'k8s':
      return { ...base, change: e.message, tone: e.eventType === 'Warning' ? 'failed' : 'unknown' };
  }
  return { ...base, tone: 'unknown' };
}

/** An update's row parts: its phrases, and whether it is bookkeeping only. */
function phrased(phrases: Phrase[]): Pick<Row, 'what' | 'bookkeeping' | 'tone'> {
  return {
    what: phrases.length > 0 ? phrases : words({ key: 'updated', bookkeeping: true }),
    ...(phrases.every((p) => p.bookkeeping === true) ? { bookkeeping: true } : {}),
    tone: phrases.find((p) => p.tone !== undefined)?.tone ?? 'unknown',
  };
}

/** uid → `namespace/name` for every pod the buffer has seen (pods that are gone keep their name). */
export function podNameIndex(
  events: readonly TimelineEvent[],
  current: Iterable<{ uid: string; namespace: string; name: string }>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events)
    if (e.kind === 'pod' && e.type === 'PodAdded' && e.pod)
      out.set(e.podUid, `${e.pod.namespace}/${e.pod.name}`);
  for (const p of current) out.set(p.uid, `${p.namespace}/${p.name}`);
  return out;
}
