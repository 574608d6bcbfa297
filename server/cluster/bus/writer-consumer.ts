/**
 * The writers' durable pull consumer (explicit ack): every console replica's writer (writer.ts)
 * pulls from the same one, so JetStream hands each message to one writer at a time; its
 * acknowledgement floor says how far the timeline database holds everything.
 */
import { AckPolicy, DeliverPolicy, type Consumer } from '@nats-io/jetstream';
import type { BusConnection } from './connection';
import { nanos } from './provision';

/** Unacknowledged messages the writers may hold at once. */
export const WRITER_MAX_ACK_PENDING = 20_000;

/** The writers' shared durable consumer, created if missing. */
export async function writerConsumer(bus: BusConnection, ackWaitMs = 30_000): Promise<Consumer> {
  const { js, jsm, names } = bus;
  const durable = names.writerDurable;
  try {
    await jsm.consumers.info(names.stream, durable);
  } catch (err) {
    if (!/consumer not found/i.test(String(err))) throw err;
    await jsm.consumers.add(names.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: names.eventsFilter,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: WRITER_MAX_ACK_PENDING,
    });
  }
  return js.consumers.get(names.stream, durable);
}

/**
 * The writers' acknowledgement floor: every stream message up to this sequence has been
 * committed to the timeline database (or refused) and acknowledged. 0 before the writers'
 * consumer exists.
 */
export async function writerAckFloor(bus: BusConnection): Promise<number> {
  try {
    const info = await bus.jsm.consumers.info(bus.names.stream, bus.names.writerDurable);
    return info.ack_floor.stream_seq;
  } catch (err) {
    if (/consumer not found/i.test(String(err))) return 0;
    throw err;
  }
}
