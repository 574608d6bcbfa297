/** Builders of valid bus messages for tests and the load generator. */
import type { CriEvent, NodeEvent, TimelineEvent } from '@/lib/timeline/events';
import { ENVELOPE_VERSION, type EventsMessage, type Heartbeat } from './envelope';

/** `count` CRI ContainerStarted events of `node` with seqs from `seq`. */
export function criEvents(
  node: string,
  seq: number,
  count: number,
  t = Date.now(),
): TimelineEvent[] {
  const out: CriEvent[] = [];
  for (let i = 0; i < count; i++)
    out.push({
      kind: 'cri',
      type: 'ContainerStarted',
      source: 'relist',
      seq: seq + i,
      t,
      node,
      podUid: `pod-${node}-${(seq + i) % 7}`,
      container: 'app',
      id: `c-${seq + i}`,
    });
  return out;
}

export function eventsMessage(
  cluster: string,
  node: string,
  epoch: string,
  seq: number,
  count = 1,
  t = Date.now(),
  events: TimelineEvent[] = criEvents(node, seq, count, t),
): EventsMessage {
  return { v: ENVELOPE_VERSION, type: 'events', cluster, node, epoch, seq, t, events };
}

/** The node's NodeAdded (connected) as the agent's first message. */
export function nodeAddedMessage(
  cluster: string,
  node: string,
  epoch: string,
  seq = 1,
  t = Date.now(),
): EventsMessage {
  const added: NodeEvent = {
    kind: 'node',
    type: 'NodeAdded',
    seq,
    t,
    node,
    endpoint: `unix:///run/${node}.sock`,
    health: { connected: true },
  };
  return eventsMessage(cluster, node, epoch, seq, 1, t, [added]);
}

export function heartbeatOf(
  cluster: string,
  node: string,
  epoch: string,
  seq: number,
  t = Date.now(),
): Heartbeat {
  return {
    v: ENVELOPE_VERSION,
    cluster,
    node,
    epoch,
    seq,
    t,
    instance: { host: 'test-host', pid: process.pid, endpoint: 'unix:///test.sock' },
    dropped: 0,
  };
}
