/**
 * Global event ids in cluster mode. An agent numbers its own events (node, epoch, seq); the
 * cluster orders them by the JetStream stream sequence of the message that carried them. A
 * message holds at most MAX_EVENTS_PER_MESSAGE events, so
 *
 *   gid = streamSeq × MAX_EVENTS_PER_MESSAGE + index in the message
 *
 * is strictly increasing in stream order, the same on every replica and in PostgreSQL, and turns
 * back into the stream sequence to resume from: a browser's Last-Event-ID names one point of the
 * cluster timeline whichever replica it reaches (safe up to 2^53 / 1024 ≈ 8.8e12 messages).
 *
 * Derived events name their cause by the agent's seq; inside one message it becomes the cause's
 * gid (the agent sends a relist's CRI events and what they caused together). A cause outside
 * the message is left out rather than guessed.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { MAX_EVENTS_PER_MESSAGE, type BusMessage, type GapMessage } from './envelope';

export const GID_SLOTS = MAX_EVENTS_PER_MESSAGE;

export const gidOf = (streamSeq: number, index: number) => streamSeq * GID_SLOTS + index;
export const streamSeqOfGid = (gid: number) => Math.floor(gid / GID_SLOTS);

/** A gap the agent declared: seqs lost in its outbox, filed at the gap message's place. */
export interface GapRecord {
  kind: 'gap';
  seq: number;
  t: number;
  node: string;
  epoch: string;
  lost: { from: number; to: number };
  reason: GapMessage['reason'];
}

export interface GlobalEvent {
  gid: number;
  streamSeq: number;
  node: string;
  epoch: string;
  /** The agent's own seq. */
  nodeSeq: number;
  /** The event with `seq` = gid and `cause` mapped to a gid (or a gap record). */
  event: TimelineEvent | GapRecord;
}

/** A message's events under global ids, kept for its other reader (the view's, the writer's). */
const made = new WeakMap<BusMessage, { streamSeq: number; events: readonly GlobalEvent[] }>();

/** Messages whose event objects nobody else holds: renumbered in place, not copied. */
const adopted = new WeakSet<BusMessage>();

/**
 * Hands a message's event objects over to globalEvents, which then gives them their global ids
 * in place instead of copying each one: for a parse nothing else holds (the replica's reader's,
 * bus/reader.ts), where the copies were one more object per event for the garbage collector. Afterwards the
 * message's events carry global ids, not the agent's seqs (the message's `seq` still says where
 * its run starts).
 */
export function adoptEvents(msg: BusMessage): void {
  if (msg.type === 'events') adopted.add(msg);
}

/**
 * The message's events with global ids. The same message object at the same stream sequence
 * gets the same (shared, read-only) array: the view and the writer take one parse of each
 * message (bus/reader.ts ParseSharing) and so one set of events.
 */
export function globalEvents(streamSeq: number, msg: BusMessage): readonly GlobalEvent[] {
  const known = made.get(msg);
  if (known?.streamSeq === streamSeq) return known.events;
  // Another stream seq for the same message (its events may have been renumbered in place):
  // the events made before, moved to this one's gids.
  const events =
    known && msg.type === 'events' ? moved(known, streamSeq) : makeGlobalEvents(streamSeq, msg);
  made.set(msg, { streamSeq, events });
  return events;
}

function moved(
  known: { streamSeq: number; events: readonly GlobalEvent[] },
  streamSeq: number,
): GlobalEvent[] {
  const shift = gidOf(streamSeq, 0) - gidOf(known.streamSeq, 0);
  return known.events.map((g) => {
    const event = { ...g.event, seq: g.event.seq + shift } as TimelineEvent;
    if (event.cause !== undefined) event.cause += shift;
    return { ...g, streamSeq, gid: g.gid + shift, event };
  });
}

function makeGlobalEvents(streamSeq: number, msg: BusMessage): GlobalEvent[] {
  const base = gidOf(streamSeq, 0);
  const common = { streamSeq, node: msg.node, epoch: msg.epoch };
  if (msg.type === 'gap') {
    return [
      {
        ...common,
        gid: base,
        nodeSeq: msg.seq,
        event: {
          kind: 'gap',
          seq: base,
          t: msg.t,
          node: msg.node,
          epoch: msg.epoch,
          lost: msg.lost,
          reason: msg.reason,
        },
      },
    ];
  }
  const last = msg.seq + msg.events.length - 1;
  const inPlace = adopted.delete(msg);
  return msg.events.map((e, i) => {
    // A clone by one spread keeps the event's shape (V8 copies it whole); seq and an in-message
    // cause are overwritten in place. Rest destructuring, which builds the object key by key
    // (~3 µs per event, 5 % of the console's samples in the ingest flood), only for a cause
    // from outside the message, which is left out. An adopted message's events are changed in
    // place (the same keys, so the same shape), but for such a cause: deleting a key would
    // leave the object in V8's slow dictionary mode.
    const cause = e.cause;
    let event: TimelineEvent;
    if (cause === undefined || (cause >= msg.seq && cause <= last)) {
      event = inPlace ? e : { ...e };
      event.seq = base + i;
      if (cause !== undefined) event.cause = base + (cause - msg.seq);
    } else {
      const { cause: _outside, ...rest } = e;
      event = { ...rest, seq: base + i };
    }
    return {
      streamSeq,
      node: msg.node,
      epoch: msg.epoch,
      gid: base + i,
      nodeSeq: msg.seq + i,
      event,
    };
  });
}
