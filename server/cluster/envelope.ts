/**
 * The messages on the bus. Everything read from NATS is untrusted: it is parsed here and either
 * accepted whole or refused with one named reason (counted and logged by refusals.ts). Nothing
 * refused is ever applied. In memory every message has the version 1 shape; on the bus an events
 * message travels as version 2 (its events as one lean-wire frame, EVENTS_WIRE_ENVELOPE_VERSION),
 * and version 1 events messages (older agents) are read as well.
 *
 * An `events` message carries a run of one agent's transitions with consecutive per-node seqs:
 * events[i].seq === seq + i. A `gap` message takes one seq and says which seqs the agent dropped
 * (its outbox overflowed while NATS was unreachable), so a gap is explicit, never silent. A gap
 * occupies the seqs it stands for (seq = lost.from … lost.to), so every node's run of seqs stays
 * contiguous and a reader can tell an explained gap from an unexplained one.
 * Both go to the node's subject with the message id `<node token>/<epoch>/<seq>`, which JetStream
 * de-duplicates within its window and PostgreSQL by (node, epoch, seq) forever.
 *
 * Reading messages from the bus (the schemas and every check) is parse.ts: an agent only writes
 * them, and so does not load zod.
 *
 * An epoch names one run of one agent: `<start ms in base 36>-<8 hex>`, new on every start, so
 * seqs restart at 1 without colliding and a newer run sorts after an older one.
 */
import { randomBytes } from 'node:crypto';
import type { NodeView } from '@/lib/timeline/state';
import type { TimelineEvent } from '@/lib/timeline/events';
import { WireEncoder } from '@/lib/timeline/wire';
import { encodeToken } from './names';

/** The envelope as held in memory, and on the bus for gaps, heartbeats and node states. */
export const ENVELOPE_VERSION = 1;
/**
 * An events message on the bus: the v1 fields with `wire` (one self-contained lean-wire frame,
 * lib/timeline/wire.ts: strings interned within the message, implied seqs/times/node, inputs that
 * repeat params as keys) in place of `events`. Readers accept both (an agent of before sends v1);
 * writers send this — so consoles are upgraded before agents.
 */
export const EVENTS_WIRE_ENVELOPE_VERSION = 2;
/** Events in one message: the console's global ids leave room for this many per stream seq. */
export const MAX_EVENTS_PER_MESSAGE = 1024;
/** Below NATS's default max_payload (1 MiB). */
export const MAX_MESSAGE_BYTES = 900 * 1024;
/** The stream's max_msg_size: no message on it, refused or not, is larger. */
export const STREAM_MAX_MESSAGE_BYTES = 1024 * 1024;

/** `<start ms in base 36>-<8 hex>`. */
export const EPOCH = /^[0-9a-z]{1,11}-[0-9a-f]{8}$/;
/** An API-view epoch: one leader's run publishing the API server's view (api-view.ts). */
export const API_EPOCH = /^[0-9a-z]{1,11}-[0-9a-f]{8}-api$/;

export function newEpoch(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * The epoch of one run of the console replica that leads the API-server view (api-view.ts): its
 * messages go to a node's subject beside the agent's but are a source of their own — they carry
 * only what the API server knows (Events, drift), never the node's runtime state.
 */
export function newApiEpoch(now = Date.now()): string {
  return `${newEpoch(now)}-api`;
}

export const isApiEpoch = (epoch: string): boolean => epoch.endsWith('-api');

/** The start time an epoch was made at (epoch ms). */
export function epochTime(epoch: string): number {
  return parseInt(epoch.slice(0, epoch.indexOf('-')), 36);
}

/** Orders two epochs of one node: negative when `a` is the older run. */
export function compareEpochs(a: string, b: string): number {
  return epochTime(a) - epochTime(b) || (a < b ? -1 : a > b ? 1 : 0);
}

export const EVENT_KINDS = ['cri', 'container', 'pod', 'node', 'k8s'] as const;

interface Head {
  v: typeof ENVELOPE_VERSION;
  cluster: string;
  node: string;
  epoch: string;
  seq: number;
  t: number;
}

/** A run of one agent's transitions with consecutive per-node seqs (parse.ts checks it). */
export interface EventsMessage extends Head {
  type: 'events';
  events: TimelineEvent[];
}

export interface GapMessage extends Head {
  type: 'gap';
  /** The seqs the agent dropped, inclusive. */
  lost: { from: number; to: number };
  reason: 'outbox-full';
}

export type BusMessage = EventsMessage | GapMessage;

/** What a heartbeat and a node state both begin with: whose record, and how far it reaches. */
interface RecordHead {
  v: typeof ENVELOPE_VERSION;
  cluster: string;
  node: string;
  epoch: string;
  /** Heartbeat: the last seq this epoch has assigned. Node state: the view is the state after it. */
  seq: number;
  t: number;
}

/** Heartbeat in KV (`hb.<node>`): the agent is alive, and how far it has published. */
export interface Heartbeat extends RecordHead {
  /** Who runs it, so two agents claiming one node name can be told apart and shown. */
  instance: { host: string; pid: number; endpoint: string };
  /** Events dropped by the outbox since this epoch started. */
  dropped: number;
}

/** Latest full node state in KV (`state.<node>`), for consoles that start later. */
export interface NodeState extends RecordHead {
  view: NodeView;
}

export type Refusal =
  | 'too-large'
  | 'not-json'
  | 'unknown-version'
  | 'bad-envelope'
  | 'foreign-cluster'
  | 'subject-mismatch'
  | 'bad-sequence'
  | 'bad-api-event';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: Refusal; detail: string };

/** The bytes of a message: an events message in the lean wire (v2), anything else as it is. */
export function encodeMessage(msg: BusMessage | Heartbeat | NodeState): Uint8Array {
  if ('type' in msg && msg.type === 'events') {
    const { events, ...rest } = msg;
    const wire = new WireEncoder().encode(events);
    return Buffer.from(JSON.stringify({ ...rest, v: EVENTS_WIRE_ENVELOPE_VERSION, wire }), 'utf8');
  }
  return Buffer.from(JSON.stringify(msg), 'utf8');
}

/** The v1 bytes of a message (what agents before the lean wire sent; tests and comparisons). */
export function encodeMessageV1(msg: BusMessage | Heartbeat | NodeState): Uint8Array {
  return Buffer.from(JSON.stringify(msg), 'utf8');
}

/** The header JetStream de-duplicates by (js.publish sets it from its msgID option). */
export const MSG_ID_HEADER = 'Nats-Msg-Id';

/** JetStream's Nats-Msg-Id for a message: one per (node, epoch, seq). */
export const messageId = (m: { node: string; epoch: string; seq: number }) =>
  `${encodeToken(m.node)}/${m.epoch}/${m.seq}`;

/** The last seq a message occupies. */
export const lastSeqOf = (m: BusMessage) =>
  m.type === 'gap' ? m.lost.to : m.seq + m.events.length - 1;

/**
 * What a message is besides its bytes: whose run and where it starts, how many events it holds
 * and their earliest and latest times — what the cluster timeline's row of it says
 * (timeline/rows.ts). The writer has it from the replica's tail, which parsed the message
 * already (bus/reader.ts ParseSharing.acceptForWriter), or from its own parse.
 */
export interface MessageSummary {
  node: string;
  epoch: string;
  /** The agent's seq of its first event (a gap's: the first seq lost). */
  seq: number;
  count: number;
  t: number;
  tMax: number;
}

/** The summary of a parsed message (a gap is one event, at its time). */
export function summaryOf(message: BusMessage): MessageSummary {
  const { node, epoch, seq } = message;
  if (message.type === 'gap') return { node, epoch, seq, count: 1, t: message.t, tMax: message.t };
  let t = Infinity;
  let tMax = -Infinity;
  for (const e of message.events) {
    if (e.t < t) t = e.t;
    if (e.t > tMax) tMax = e.t;
  }
  return { node, epoch, seq, count: message.events.length, t, tMax };
}
