/**
 * The API-view source on the stream (api-events.ts, envelope.ts, parse.ts): an `…-api` epoch carries only
 * API-server Events and drift; anything else under it is refused whole, and an API epoch is never
 * an agent's (heartbeats and node states refuse it).
 */
import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@/lib/timeline/events';
import { encodeMessage, isApiEpoch, newApiEpoch, newEpoch, type EventsMessage } from './envelope';
import { parseBusMessage, parseHeartbeat } from './parse';
import { heartbeatOf } from './testing';

const t = Date.parse('2026-12-02T12:00:00Z');
const drift = {
  kind: 'kubeletNotReporting',
  node: 'node-a',
  field: 'lease.spec.renewTime',
  api: '2026-03-01T10:01:55Z',
  runtime: 'connected',
  status: 'drift',
  since: t - 60_000,
  why: { id: 'drift.kubeletNotReporting', params: { ageSeconds: 60 } },
};
const k8s = {
  kind: 'k8s',
  type: 'Event',
  seq: 1,
  t,
  node: 'node-a',
  reason: 'NodeNotReady',
  message: 'Node node-a status is now: NodeNotReady',
  eventType: 'Warning',
  involvedObject: { kind: 'Node', name: 'node-a', uid: 'node-a' },
  count: 1,
  source: 'node-controller',
};

function message(events: unknown[], epoch = newApiEpoch(t)): EventsMessage {
  return {
    v: 1,
    type: 'events',
    cluster: 'c',
    node: 'node-a',
    epoch,
    seq: 1,
    t,
    events: events.map((e, i) => ({ ...(e as object), seq: 1 + i })) as TimelineEvent[],
  };
}
const parse = (m: EventsMessage) => parseBusMessage(encodeMessage(m), 'c', 'node-a');

describe('the API view on the stream', () => {
  it('tells API epochs from agent epochs', () => {
    expect(isApiEpoch(newApiEpoch())).toBe(true);
    expect(isApiEpoch(newEpoch())).toBe(false);
  });

  it('accepts Events and drift under an API epoch, through the lean wire', () => {
    const m = message([
      k8s,
      { kind: 'node', type: 'NodeUpdated', t, node: 'node-a', drift: [drift] },
      { kind: 'pod', type: 'PodUpdated', t, node: 'node-a', podUid: 'u1', patch: { drift: null } },
    ]);
    const got = parse(m);
    expect(got.ok).toBe(true);
    if (got.ok && got.value.type === 'events') expect(got.value.events).toEqual(m.events);
  });

  it.each([
    [
      'a node health',
      { kind: 'node', type: 'NodeUpdated', t, node: 'node-a', health: { connected: false } },
    ],
    ['a node added', { kind: 'node', type: 'NodeAdded', t, node: 'node-a' }],
    [
      'a pod status',
      {
        kind: 'pod',
        type: 'PodUpdated',
        t,
        node: 'node-a',
        podUid: 'u',
        patch: { status: { phase: 'Failed' } },
      },
    ],
    [
      'a container state',
      {
        kind: 'container',
        type: 'ContainerStateChanged',
        t,
        node: 'node-a',
        podUid: 'u',
        container: 'app',
      },
    ],
    [
      'a CRI event',
      {
        kind: 'cri',
        type: 'ContainerStarted',
        t,
        node: 'node-a',
        podUid: 'u',
        container: 'app',
        id: 'c',
        source: 'relist',
      },
    ],
    [
      'a drift of an unknown kind',
      {
        kind: 'node',
        type: 'NodeUpdated',
        t,
        node: 'node-a',
        drift: [{ ...drift, kind: 'madeUp' }],
      },
    ],
    ['an Event with a 1 MB message', { ...k8s, message: 'x'.repeat(100_000) }],
  ])('refuses %s under an API epoch (the whole message)', (_, bad) => {
    const got = parse(message([k8s, bad]));
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.reason).toBe('bad-api-event');
  });

  it('an agent epoch carries anything the agent derives, as before', () => {
    const health = {
      kind: 'node',
      type: 'NodeUpdated',
      t,
      node: 'node-a',
      health: { connected: true },
    };
    expect(parse(message([health], newEpoch(t))).ok).toBe(true);
  });

  it('refuses an API epoch in a heartbeat: the API view is no agent', () => {
    const hb = heartbeatOf('c', 'node-a', newApiEpoch(t), 1, t);
    const got = parseHeartbeat(encodeMessage(hb), 'c', 'node-a');
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.reason).toBe('bad-envelope');
  });
});
