/**
 * The ordered tail: every stream message from a stream sequence on, in order, through an ordered
 * consumer (ephemeral; it re-creates itself after a disconnect at the next sequence, so a NATS
 * restart loses nothing). Raw messages: the replica's reader (reader.ts) parses them.
 *
 * The consumer holds up to 512 messages at a time, bounded by count only: at the stream's 1 MiB
 * message limit that is up to 512 MiB buffered (agents' messages are a few KiB).
 */
import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import type { BusConnection } from './connection';

/** Messages the tail's consumer asks for at a time. */
export const TAIL_MAX_MESSAGES = 512;

/**
 * The stream from `fromSeq` on; with `node`, only that node's subject (a single filter:
 * nats-server 2.9 has no multi-filter).
 */
export async function orderedTail(
  bus: BusConnection,
  fromSeq: number,
  node?: string,
): Promise<ConsumerMessages> {
  const { js, names } = bus;
  const consumer = await js.consumers.get(names.stream, {
    filter_subjects: node ? names.eventSubject(node) : names.eventsFilter,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: Math.max(1, fromSeq),
  });
  return consumer.consume({ max_messages: TAIL_MAX_MESSAGES });
}
