/**
 * Reading the bus: everything read from NATS is untrusted — parsed here and either accepted whole
 * or refused with one named reason (counted and logged by refusals.ts). Nothing refused is ever
 * applied. The shapes and how they are written are envelope.ts; this half holds the schemas
 * (zod), so only readers (the console, its writer) load them, not the agent.
 */
import { z } from 'zod';
import type { TimelineEvent } from '@/lib/timeline/events';
import { WireDecoder } from '@/lib/timeline/wire';
import { checkApiEvents } from './api-events';
import {
  API_EPOCH,
  ENVELOPE_VERSION,
  EPOCH,
  EVENT_KINDS,
  EVENTS_WIRE_ENVELOPE_VERSION,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  type BusMessage,
  type EventsMessage,
  type GapMessage,
  type Heartbeat,
  type NodeState,
  type Parsed,
  type Refusal,
  isApiEpoch,
} from './envelope';
import { NODE_NAME } from './names';

const nodeName = z.string().max(253).regex(NODE_NAME, 'node name is not a DNS-1123 subdomain');
const seq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const time = z.number().int().min(0).max(8.64e15);
const epoch = z.string().regex(EPOCH, 'epoch is not <base36 ms>-<8 hex>');
/** On the stream: an agent's epoch, or the API-view leader's (…-api). */
const streamEpoch = z
  .string()
  .refine((e) => EPOCH.test(e) || API_EPOCH.test(e), 'epoch is not <base36 ms>-<8 hex>[-api]');

/** One timeline event as the agent sent it: the envelope checks identity fields; the rest is opaque. */
const event = z.looseObject({
  kind: z.enum(EVENT_KINDS),
  type: z.string().min(1).max(64),
  seq,
  t: time,
  node: nodeName,
  cause: seq.optional(),
});

const base = {
  v: z.literal(ENVELOPE_VERSION),
  cluster: z.string().min(1).max(63),
  node: nodeName,
  epoch: streamEpoch,
  seq,
  t: time,
};

export const eventsMessage = z.strictObject({
  ...base,
  type: z.literal('events'),
  events: z.array(event).min(1).max(MAX_EVENTS_PER_MESSAGE),
});

export const gapMessage = z.strictObject({
  ...base,
  type: z.literal('gap'),
  /** The seqs the agent dropped, inclusive. */
  lost: z.strictObject({ from: seq, to: seq }),
  reason: z.enum(['outbox-full']),
});

export const busMessage = z.discriminatedUnion('type', [eventsMessage, gapMessage]);

/** The v2 events message as sent: the frame is checked by the wire decoder, then as events. */
const wireEventsMessage = z.strictObject({
  ...base,
  v: z.literal(EVENTS_WIRE_ENVELOPE_VERSION),
  type: z.literal('events'),
  wire: z.unknown(),
});

// The schemas accept exactly the shapes envelope.ts declares (checked when this compiles).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapes: [
  Same<Omit<z.infer<typeof eventsMessage>, 'events'>, Omit<EventsMessage, 'events'>>,
  Same<z.infer<typeof gapMessage>, GapMessage>,
  Same<z.infer<typeof heartbeat>, Heartbeat>,
  Same<Omit<z.infer<typeof nodeState>, 'view'>, Omit<NodeState, 'view'>>,
] = [true, true, true, true];
void shapes;

/** What a heartbeat and a node state both begin with: whose record, and how far it reaches. */
const recordHead = {
  v: z.literal(ENVELOPE_VERSION),
  cluster: z.string().min(1).max(63),
  node: nodeName,
  epoch,
  seq: z.number().int().min(0),
  t: time,
};

/** Heartbeat in KV (`hb.<node>`): the agent is alive, and how far it has published. */
export const heartbeat = z.strictObject({
  ...recordHead,
  /** Who runs it, so two agents claiming one node name can be told apart and shown. */
  instance: z.strictObject({
    host: z.string().max(253),
    pid: z.number().int().min(0),
    endpoint: z.string().max(512),
  }),
  /** Events dropped by the outbox since this epoch started. */
  dropped: z.number().int().min(0),
});

/** Latest full node state in KV (`state.<node>`), for consoles that start later. */
export const nodeState = z.strictObject({
  ...recordHead,
  view: z.looseObject({
    name: nodeName,
    pods: z.record(z.string(), z.unknown()),
    conditions: z.array(z.unknown()),
  }),
});

const refuse = (
  reason: Refusal,
  detail: string,
): { ok: false; reason: Refusal; detail: string } => ({
  ok: false,
  reason,
  detail: detail.slice(0, 300),
});

function parseJson(
  data: Uint8Array,
  versions: readonly number[] = [ENVELOPE_VERSION],
): Parsed<Record<string, unknown>> {
  if (data.byteLength > MAX_MESSAGE_BYTES)
    return refuse('too-large', `${data.byteLength} bytes (limit ${MAX_MESSAGE_BYTES})`);
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
  } catch (err) {
    return refuse('not-json', err instanceof Error ? err.message : String(err));
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return refuse('bad-envelope', 'not a JSON object');
  const obj = raw as Record<string, unknown>;
  if (typeof obj.v !== 'number' || !versions.includes(obj.v))
    return refuse('unknown-version', `v=${JSON.stringify(obj.v)?.slice(0, 20)}`);
  return { ok: true, value: obj };
}

/** A v2 events message as the v1 shape (events decoded from its wire frame), or a refusal. */
function fromWire(obj: Record<string, unknown>): Parsed<Record<string, unknown>> {
  const head = wireEventsMessage.safeParse(obj);
  if (!head.success) return refuse('bad-envelope', issue(head.error));
  const { wire, ...rest } = head.data;
  let events: TimelineEvent[];
  try {
    // One frame per message, read with a fresh decoder: a message never depends on another.
    events = new WireDecoder().decode(wire);
  } catch (err) {
    return refuse('bad-envelope', `wire: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { ok: true, value: { ...rest, v: ENVELOPE_VERSION, events } };
}

const isSeq = (v: unknown) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= Number.MAX_SAFE_INTEGER;
const isTime = (v: unknown) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= 8.64e15;
const KINDS: ReadonlySet<unknown> = new Set(EVENT_KINDS);

/**
 * `events` as eventsMessage's schema checks them (each one `event`), without building zod's copy
 * of every event: the wire decoder's events are new objects already. False means "ask zod", which
 * then refuses the message and says why.
 */
function plainEventsValid(events: unknown): boolean {
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_EVENTS_PER_MESSAGE)
    return false;
  for (const e of events as unknown[]) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    const { kind, type, seq, t, node, cause } = e as Record<string, unknown>;
    if (!KINDS.has(kind)) return false;
    if (typeof type !== 'string' || type.length < 1 || type.length > 64) return false;
    if (!isSeq(seq) || !isTime(t)) return false;
    if (typeof node !== 'string' || node.length > 253 || !NODE_NAME.test(node)) return false;
    if (cause !== undefined && !isSeq(cause)) return false;
  }
  return true;
}

const issue = (err: z.ZodError) =>
  err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

/**
 * Parses a message read from `subject` of `cluster`, whose subject names `subjectNode`. Refuses
 * one whose body claims another cluster or node (a foreign or misrouted publisher), and events
 * whose seqs are not the message's consecutive run.
 */
export function parseBusMessage(
  data: Uint8Array,
  cluster: string,
  subjectNode: string | undefined,
): Parsed<BusMessage> {
  if (subjectNode === undefined) return refuse('subject-mismatch', 'not a node event subject');
  let json = parseJson(data, [ENVELOPE_VERSION, EVENTS_WIRE_ENVELOPE_VERSION]);
  if (!json.ok) return json;
  const wire = json.value.v === EVENTS_WIRE_ENVELOPE_VERSION;
  if (wire) json = fromWire(json.value);
  if (!json.ok) return json;
  let msg: z.infer<typeof busMessage>;
  // A v2 message's head passed wireEventsMessage (the same fields as eventsMessage's): only its
  // decoded events are left to check.
  if (wire && plainEventsValid(json.value.events)) msg = json.value as z.infer<typeof busMessage>;
  else {
    const parsed = busMessage.safeParse(json.value);
    if (!parsed.success) return refuse('bad-envelope', issue(parsed.error));
    msg = parsed.data;
  }
  if (msg.cluster !== cluster)
    return refuse('foreign-cluster', `cluster "${msg.cluster}", this is "${cluster}"`);
  if (msg.node !== subjectNode)
    return refuse('subject-mismatch', `body says node "${msg.node}", subject "${subjectNode}"`);
  if (isApiEpoch(msg.epoch)) {
    if (msg.type === 'gap') return refuse('bad-api-event', 'the API view announces no gaps');
    const bad = checkApiEvents(msg.events);
    if (bad) return refuse('bad-api-event', bad);
  }
  if (msg.type === 'gap') {
    if (msg.lost.from !== msg.seq || msg.lost.to < msg.lost.from)
      return refuse('bad-sequence', `gap ${msg.lost.from}..${msg.lost.to} at seq ${msg.seq}`);
    return { ok: true, value: msg };
  }
  for (let i = 0; i < msg.events.length; i++) {
    const e = msg.events[i] as { seq: number; node: string; cause?: number };
    if (e.seq !== msg.seq + i)
      return refuse('bad-sequence', `event ${i} has seq ${e.seq}, expected ${msg.seq + i}`);
    if (e.node !== msg.node)
      return refuse('subject-mismatch', `event ${i} is about node "${e.node}"`);
    if (e.cause !== undefined && e.cause > e.seq)
      return refuse('bad-sequence', `event ${i} is caused by a later seq ${e.cause}`);
  }
  return { ok: true, value: msg as unknown as EventsMessage };
}

function parseKv<S extends z.ZodType>(
  schema: S,
  data: Uint8Array,
  cluster: string,
  keyNode: string,
): Parsed<z.infer<S>> {
  const json = parseJson(data);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return refuse('bad-envelope', issue(parsed.error));
  const v = parsed.data as { cluster: string; node: string };
  if (v.cluster !== cluster)
    return refuse('foreign-cluster', `cluster "${v.cluster}", this is "${cluster}"`);
  if (v.node !== keyNode)
    return refuse('subject-mismatch', `body says node "${v.node}", key "${keyNode}"`);
  return { ok: true, value: parsed.data };
}

export const parseHeartbeat = (data: Uint8Array, cluster: string, keyNode: string) =>
  parseKv(heartbeat, data, cluster, keyNode);

export const parseNodeState = (data: Uint8Array, cluster: string, keyNode: string) =>
  parseKv(nodeState, data, cluster, keyNode) as Parsed<NodeState>;
