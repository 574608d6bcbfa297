/**
 * The rows of `cluster_messages` (schema.ts): one per bus message, its body the message as the
 * agent published it, and back again into events under global ids (global.ts).
 *
 *   const row = messageRow(storedMessage(streamSeq, msg));   // a test's or a tool's message
 *   const row = messageRow({ streamSeq, summary, body });     // the writer's: body = the bytes read
 *   eventsOf(row)                                             // → the events with gid, as the view made them
 *
 * Storing the message as published (and not its events one row each) is what lets a replica's
 * writer keep up with the bus: it does no per-event work at all — no serialising, no row per
 * event for PostgreSQL to parse, index and write — and the stored text is the agent's lean-wire
 * frame, a fraction of the events' JSON. Reading decodes the message again, which happens only
 * for resumes, seeks and checkpoints.
 */
import { isUtf8 } from 'node:buffer';
import type { TimelineEvent } from '@/lib/timeline/events';
import { WireDecoder } from '@/lib/timeline/wire';
import {
  encodeMessage,
  ENVELOPE_VERSION,
  EVENTS_WIRE_ENVELOPE_VERSION,
  summaryOf,
  type BusMessage,
  type MessageSummary,
} from '../envelope';
import { adoptEvents, gidOf, globalEvents, type GapRecord } from '../global';
import type { ClusterMessagesTable } from '@/server/timeline-db/schema';

/** `format`: the body is a bus message as published (its events under the agent's seqs). */
export const FORMAT_MESSAGE = 1;
/** `format`: the body is one event under its global id (rows moved from before migration 0004). */
export const FORMAT_EVENT = 0;

/** A bus message to store: where it is in the stream, what it holds, and its bytes as published. */
export interface StoredMessage {
  streamSeq: number;
  summary: MessageSummary;
  /**
   * The message's bytes as read from the bus: stored as their text (bodyText) and decoded again
   * when read.
   */
  body: Uint8Array;
}

/**
 * A body's bytes as they are stored: themselves when they are UTF-8, else as the text a reader
 * decodes them to (each malformed sequence one U+FFFD, as parse.ts read the message) — so
 * PostgreSQL, which refuses malformed UTF-8 in text, is never sent any.
 */
export function bodyBytes(body: Uint8Array): Uint8Array {
  return isUtf8(body) ? body : Buffer.from(bodyText(body), 'utf8');
}

/** A body's text (as parse.ts decodes a message read from the bus). */
export function bodyText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

export type StoredEvent = TimelineEvent | GapRecord;

/** A message as its agent would publish it (encodeMessage): for tests and tools. */
export function storedMessage(streamSeq: number, message: BusMessage): StoredMessage {
  return {
    streamSeq,
    summary: summaryOf(message),
    body: encodeMessage(message),
  };
}

export type MessageRow = ClusterMessagesTable;

/** A row but its body. */
export type RowHead = Omit<MessageRow, 'body'>;

/** The row of a message: its first event's gid, how many it holds, and their times. */
export function messageRow(message: StoredMessage): MessageRow {
  return { ...rowHead(message), body: bodyText(message.body) };
}

/** The row of a message but its body. */
export function rowHead({ streamSeq, summary }: StoredMessage): RowHead {
  return {
    gid: gidOf(streamSeq, 0),
    count: summary.count,
    t: summary.t,
    t_max: summary.tMax,
    node: summary.node,
    epoch: summary.epoch,
    node_seq: summary.seq,
    stream_seq: streamSeq,
    format: FORMAT_MESSAGE,
  };
}

/** What a read needs of a row. */
export type ReadRow = Pick<MessageRow, 'stream_seq' | 'format' | 'body'>;

/**
 * The events a stored row holds, under global ids, oldest first. The body was checked when it
 * was read from the bus (parse.ts) and is the timeline's own since: it is decoded, not checked
 * again.
 */
export function eventsOf(row: ReadRow): StoredEvent[] {
  const raw = JSON.parse(row.body) as Record<string, unknown>;
  if (row.format === FORMAT_EVENT) return [raw as unknown as StoredEvent];
  let message = raw as unknown as BusMessage;
  if (raw.v === EVENTS_WIRE_ENVELOPE_VERSION) {
    const { wire, ...rest } = raw;
    // One self-contained frame per message, read with a fresh decoder (as parse.ts reads it).
    const events = new WireDecoder().decode(wire);
    message = { ...rest, v: ENVELOPE_VERSION, events } as unknown as BusMessage;
  }
  // The parse is this read's own: its events take their global ids in place.
  adoptEvents(message);
  return globalEvents(Number(row.stream_seq), message).map((g) => g.event);
}
