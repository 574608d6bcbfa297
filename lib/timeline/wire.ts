/**
 * The lean event wire: how a stream of timeline events travels to a live reader (the console's
 * cluster.watch SSE stream; the cluster bus may use the same encoder per subject). It is a
 * transport encoding only — `WireDecoder.decode(WireEncoder.encode(events))` gives back the same
 * events (equal as `encode()` writes them), which the reader folds through the one reducer exactly
 * as replay does. Stored timelines and timeline files keep the plain event shape (file/FORMAT.md).
 *
 * Both ends are stateful, per stream, and change their state the same way from the same events:
 * - **Interned strings.** Node names, pod uids, container ids, image refs, explanation ids and
 *   rules, event kinds: the first time such a string is sent it goes as itself and both ends put
 *   it in a table; later it goes as its slot number. The table is a ring of `tableSize` slots
 *   (the oldest string leaves first), so a long stream holds a bounded table.
 * - **Status diffs.** A container's status is sent whole the first time the stream mentions the
 *   container (or when the snapshot the stream began with did not hold it), afterwards as the
 *   top-level fields that changed from the previous status of the same container, with
 *   `lastState` as "the previous `state`" when that is what it is (a restart).
 * - **No repeated explanation inputs.** An input whose value equals the param of the same name
 *   goes as its key alone.
 * - **Implicit seq, cause and time.** Consecutive seqs are implied, a cause goes as its distance
 *   back, a time as the step from the previous event's, a node as "same as the previous event".
 *
 * A stream starts either with `seed(snapshot)` on both ends (the snapshot the reader received),
 * or, without a snapshot (a resumed connection), with a frame flagged `r`: the decoder then drops
 * everything it held. A frame that does not decode throws `WireError`; the reader must then start
 * a new stream (its table and statuses can no longer be trusted).
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { Explanation } from '../kubelet/explanation';
import type { TimelineEvent } from './events';
import { reviveInPlace } from './codec';
import { setOwn, type ClusterState, type PodView } from './state';

/**
 * The newest wire version. 1: strings, statuses, inputs, seqs/causes/times as above. 2 adds, for
 * a stream whose gzip cannot remember (next start's compressor resets its history at every flush,
 * so each SSE message is compressed alone — bench/lib/wire-bytes.ts):
 * - **Interned values.** An explanation, a CRI event's detail, and the template of a condition
 *   or of a status diff (the record with its times and interned strings as holes, sent beside it;
 *   a time as ms before the event's) go, when the stream sent the same before, as its slot.
 * - **Known ids.** A CRI event's container id that the container's status holds goes as a flag;
 *   a container id equal to the previous status's as []; a pod the snapshot held, the first time,
 *   as its place among its node's pods there.
 * - **Usage.** A node's usage as pod templates (the figures as 0, a pod's sums of its containers
 *   as "+") and the figures (fractions as the base64 of their 8 bytes).
 * A decoder reads both; an encoder writes the version it is asked for (1 by default: the cluster
 * bus's frames, which consoles of before read).
 */
export const WIRE_VERSION = 2;
export type WireVersion = 1 | 2;
/** Slots in each end's string table (a ring). */
export const WIRE_TABLE_SIZE = 8192;

/** One encoded batch of events. */
export interface WireFrame {
  type: 'wire';
  v: WireVersion;
  /** The first frame of a stream that did not begin with a snapshot: forget the table and statuses. */
  r?: 1;
  /** seq of the first event. */
  s: number;
  e: Record<string, unknown>[];
}

export class WireError extends Error {
  override name = 'WireError';
}

type Lit = string | number;

// ── the string table ─────────────────────────────────────────────────────────────────────────

class EncodeTable {
  /**
   * What each slot holds: a string, or a value's JSON, told apart by `isValue`. Strings and
   * values are looked up in maps of their own, by the string itself: a key made by prefixing
   * (`s…`/`v…`) was a new string to build and hash at every lookup, most of the table's time.
   */
  private readonly slots: (string | undefined)[];
  private readonly isValue: boolean[];
  private readonly strings = new Map<string, number>();
  private readonly values = new Map<string, number>();
  private next = 0;

  // Filled as strings come (not `new Array(size)`): a bus message is one frame with a table of
  // its own, and allocating 8,192 slots for each of its few dozen strings was most of the
  // decoding's garbage.
  constructor(private readonly size: number) {
    this.slots = [];
    this.isValue = [];
  }

  /** The slot of a string already sent, else the string itself (which both ends then intern). */
  ref(s: string): Lit {
    const slot = this.strings.get(s);
    if (slot !== undefined) return slot;
    this.add(s, false);
    return s;
  }

  /** Whether a string is in the table (sent before and not yet pushed out). */
  has(s: string): boolean {
    return this.strings.has(s);
  }

  /** The slot of a value (by its JSON) already sent, if it is still in the table. */
  valueSlot(json: string): number | undefined {
    return this.values.get(json);
  }

  /** Interns a value just sent whole (after the strings inside it, as the decoder meets them). */
  addValue(json: string): void {
    this.add(json, true);
  }

  private add(key: string, value: boolean): void {
    const at = this.next;
    this.next = (this.next + 1) % this.size;
    const old = this.slots[at];
    if (old !== undefined) (this.isValue[at] ? this.values : this.strings).delete(old);
    this.slots[at] = key;
    this.isValue[at] = value;
    (value ? this.values : this.strings).set(key, at);
  }
}

/**
 * A deep copy of a value as the transport delivers it — JSON data, with Dates where the transport
 * revived them — as structuredClone makes it, several times faster for such data: the decoder
 * copies each interned value it hands out (an explanation, a template, a CRI event's detail), and
 * structuredClone was most of a v2 stream's decoding. Anything else goes to structuredClone.
 */
export function copyData(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyData(v[i]);
    return out;
  }
  if (v instanceof Date) return new Date(v.getTime());
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  // As JSON.parse makes it: "__proto__" an own field, not the copy's prototype.
  for (const k of Object.keys(v)) setOwn(out, k, copyData((v as Record<string, unknown>)[k]));
  return out;
}

/** A slot of the decoder's table: a string, or a value (as received; copied per use). */
type DecodeSlot = string | { value: unknown };

class DecodeTable {
  private readonly slots: (DecodeSlot | undefined)[];
  private next = 0;

  constructor(private readonly size: number) {
    this.slots = []; // filled as strings come, as EncodeTable's
  }

  read(v: unknown, what: string): string {
    if (typeof v === 'string') {
      this.put(v);
      return v;
    }
    const s = this.at(v);
    if (typeof s === 'string') return s;
    throw new WireError(`${what}: ${JSON.stringify(v)} is neither a string nor a known slot`);
  }

  /** A value sent before, by its slot (a fresh copy each time). */
  value(v: number, what: string): unknown {
    const s = this.at(v);
    if (s !== undefined && typeof s !== 'string') return copyData(s.value);
    throw new WireError(`${what}: ${JSON.stringify(v)} is not a known value slot`);
  }

  /** Interns a value just read (in the same place of the stream as the encoder did). */
  putValue(value: unknown): void {
    this.put({ value: copyData(value) });
  }

  private at(v: unknown): DecodeSlot | undefined {
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < this.size
      ? this.slots[v]
      : undefined;
  }

  private put(slot: DecodeSlot): void {
    this.slots[this.next] = slot;
    this.next = (this.next + 1) % this.size;
  }
}

// ── container statuses both ends remember ────────────────────────────────────────────────────

interface PodEntry {
  node: string;
  statuses: Map<string, V1ContainerStatus>;
}

class StatusMirror {
  private pods = new Map<string, PodEntry>();
  /** The snapshot's pods of each node, in its order (v2 names a pod by its place here). */
  private seeded = new Map<string, string[]>();
  private seededAt = new Map<string, number>();

  clear(): void {
    this.pods = new Map();
    this.seeded = new Map();
    this.seededAt = new Map();
  }

  seed(state: ClusterState): void {
    this.clear();
    for (const node of Object.values(state.nodes)) {
      const uids: string[] = [];
      for (const pod of Object.values(node.pods)) {
        this.setPod(node.name, pod);
        this.seededAt.set(pod.uid, uids.length);
        uids.push(pod.uid);
      }
      this.seeded.set(node.name, uids);
    }
  }

  /** A pod's place among its node's pods in the snapshot, if it was there (on that node). */
  placeOf(node: string, podUid: string): number | undefined {
    const at = this.seededAt.get(podUid);
    return at !== undefined && this.seeded.get(node)?.[at] === podUid ? at : undefined;
  }

  /** The pod at a place among a node's pods in the snapshot. */
  podAt(node: string, at: unknown): string | undefined {
    return typeof at === 'number' ? this.seeded.get(node)?.[at] : undefined;
  }

  get(podUid: string, list: string, name: string): V1ContainerStatus | undefined {
    return this.pods.get(podUid)?.statuses.get(`${list}/${name}`);
  }

  /** The runtime id of a pod's container as its status has it (`containerd://<id>` → `<id>`). */
  containerId(podUid: string, name: string): string | undefined {
    const status = this.get(podUid, 'regular', name) ?? this.get(podUid, 'init', name);
    const id = status?.containerID;
    if (typeof id !== 'string') return undefined;
    const at = id.indexOf('://');
    return at < 0 ? id : id.slice(at + 3);
  }

  /** What an event changes (called with the whole event, on both ends, in stream order). */
  apply(e: TimelineEvent): void {
    if (e.kind === 'container') {
      let pod = this.pods.get(e.podUid);
      if (e.type === 'ContainerRemoved' || !e.status) {
        pod?.statuses.delete(`${e.list}/${e.name}`);
        return;
      }
      if (!pod) {
        pod = { node: e.node, statuses: new Map() };
        this.pods.set(e.podUid, pod);
      }
      pod.statuses.set(`${e.list}/${e.name}`, e.status);
    } else if (e.kind === 'pod') {
      if (e.type === 'PodAdded' && e.pod) this.setPod(e.node, e.pod);
      else if (e.type === 'PodRemoved') this.pods.delete(e.podUid);
    } else if (e.kind === 'node' && e.type === 'NodeRemoved') {
      for (const [uid, pod] of this.pods) if (pod.node === e.node) this.pods.delete(uid);
    }
  }

  private setPod(node: string, pod: PodView): void {
    const statuses = new Map<string, V1ContainerStatus>();
    for (const s of pod.status.initContainerStatuses ?? []) statuses.set(`init/${s.name}`, s);
    for (const s of pod.status.containerStatuses ?? []) statuses.set(`regular/${s.name}`, s);
    this.pods.set(pod.uid, { node, statuses });
  }
}

// ── equality as encoded (Dates by their time) ────────────────────────────────────────────────

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], bb[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.hasOwn(rb, k) || !equal(ra[k], rb[k])) return false;
  return true;
}

// ── the parts both directions map the same way ───────────────────────────────────────────────

/** Status fields whose strings are interned (top level and inside each state of state/lastState). */
const STATUS_INTERNED = new Set(['containerID', 'image', 'imageID']);

/**
 * A copy of a status-like object with the interned fields mapped by `fn`, in key order (the
 * encoder and the decoder must meet the strings in the same order).
 */
function mapStatus(
  status: Record<string, unknown>,
  fn: (key: string, v: unknown) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(status)) {
    const v = status[k];
    if (v === undefined) continue;
    if (STATUS_INTERNED.has(k)) out[k] = fn(k, v);
    else if ((k === 'state' || k === 'lastState') && isRecord(v)) {
      const states: Record<string, unknown> = {};
      for (const which of Object.keys(v)) {
        const inner = v[which];
        if (isRecord(inner)) {
          const s: Record<string, unknown> = {};
          for (const ik of Object.keys(inner))
            if (inner[ik] !== undefined)
              s[ik] = ik === 'containerID' ? fn(ik, inner[ik]) : inner[ik];
          states[which] = s;
        } else states[which] = inner;
      }
      out[k] = states;
    } else out[k] = v;
  }
  return out;
}

/**
 * A field the encoder passed through under its own (long) name, set on the decoded object. It may
 * not replace a field the decoder has already read and checked (`seq`, `node`, `why`, …), nor be a
 * name that reaches the object's prototype.
 */
function carry(target: Record<string, unknown>, key: string, value: unknown, where: string): void {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype')
    throw new WireError(`${where}: field "${key}" is not allowed`);
  if (Object.hasOwn(target, key)) throw new WireError(`${where}: field "${key}" given twice`);
  target[key] = value;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

const CID = /^([a-z][a-z0-9+.-]*):\/\/(.+)$/;

/** Pod usage fields that are their containers' sum (lib/kubelet/usage.ts computeUsage). */
const POD_SUMS = ['cpuCores', 'memoryBytes'] as const;
/** In a usage template: "the sum of the containers' figures". */
const SUM = '+';

/** A pod usage's sums as computeUsage adds them: in its containers' order, from the first figure. */
function podSum(containers: Record<string, unknown>, key: string): number | undefined {
  let sum: number | undefined;
  for (const name of Object.keys(containers)) {
    const c = containers[name];
    const v = isRecord(c) ? c[key] : undefined;
    if (typeof v === 'number') sum = (sum ?? 0) + v;
  }
  return sum;
}

/** A pod's usage with the sums that add up exactly as SUM (to be recomputed), else as it is. */
function withSums(pod: unknown): unknown {
  if (!isRecord(pod) || !isRecord(pod.containers)) return pod;
  const containers = pod.containers;
  let out: Record<string, unknown> | undefined;
  for (const k of POD_SUMS) {
    const v = pod[k];
    if (typeof v === 'number' && Number.isFinite(v) && podSum(containers, k) === v) {
      out ??= { ...pod };
      out[k] = SUM;
    } else if (v === SUM) return pod; // a string where a figure belongs: sent as it is
  }
  return out ?? pod;
}

/**
 * A usage figure as sent: an integer as itself; another finite number — a CPU share with all 17
 * digits of noise — as the base64 of its 8 bytes (big-endian: the sign and exponent, which
 * figures share, first), 11 characters that round-trip exactly; anything else as itself.
 */
function figureOut(n: number): number | string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return n;
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, n);
  return btoa(String.fromCharCode(...bytes)).slice(0, 11);
}

function figureIn(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  if (!/^[A-Za-z0-9+/]{10}[AEIMQUYcgkosw048]$/.test(v)) throw new WireError(`${what}: bad figure`);
  const text = atob(`${v}=`);
  const bytes = new Uint8Array(8);
  for (let i = 0; i < 8; i++) bytes[i] = text.charCodeAt(i);
  return new DataView(bytes.buffer).getFloat64(0);
}

/** A copy of `v` with every number (at any depth) replaced by 0, passing each to `hole` in order. */
function numbersOut(v: unknown, hole: (n: number) => void): unknown {
  if (typeof v === 'number') {
    hole(v);
    return 0;
  }
  if (Array.isArray(v)) return v.map((x) => numbersOut(x, hole));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) if (v[k] !== undefined) out[k] = numbersOut(v[k], hole);
    return out;
  }
  return v;
}

/** A copy of a `numbersOut` template with its numbers taken from `next`, in the same order. */
function numbersIn(t: unknown, next: () => unknown): unknown {
  if (typeof t === 'number') return next();
  if (Array.isArray(t)) return t.map((x) => numbersIn(x, next));
  if (isRecord(t)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(t)) out[k] = numbersIn(t[k], next);
    return out;
  }
  return t;
}

// ── encoder ──────────────────────────────────────────────────────────────────────────────────

export interface WireOptions {
  tableSize?: number;
  /** The version an encoder writes (default 1); a decoder reads every version. */
  version?: WireVersion;
}

/**
 * Fields a v2 template leaves as holes (0), sent beside it in the order met: times (a Date as
 * milliseconds before the event's time) and the interned strings of a status (the slots they
 * go as change along the stream; a template is shared, so holds none).
 */
const TEMPLATE_TIMES = new Set([
  'startedAt',
  'finishedAt',
  'lastTransitionTime',
  'lastProbeTime',
  'lastHeartbeatTime',
]);
const TEMPLATE_HOLES = new Set([...TEMPLATE_TIMES, 'containerID', 'image', 'imageID']);

/**
 * A copy of `v` with every hole field (at any depth of nested objects, in key order) replaced by
 * 0, calling `hole` with each field's key and value; undefined fields dropped.
 */
function template(
  v: Record<string, unknown>,
  hole: (key: string, value: unknown) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (x === undefined) continue;
    if (TEMPLATE_HOLES.has(k)) {
      hole(k, x);
      out[k] = 0;
    } else out[k] = isRecord(x) ? template(x, hole) : x;
  }
  return out;
}

/** A copy of a template with its holes (in the order `template` met them) filled by `fill`. */
function filled(
  t: Record<string, unknown>,
  fill: (key: string) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(t)) {
    const x = t[k];
    out[k] = TEMPLATE_HOLES.has(k) ? fill(k) : isRecord(x) ? filled(x, fill) : x;
  }
  return out;
}

/**
 * Whether a value can be interned by its JSON: plain data only (a Date prints differently in
 * JSON and through the transport, so two values equal as JSON might not arrive equal).
 */
function plainData(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return typeof v !== 'function' && typeof v !== 'bigint';
  // Loops rather than every(Object.values(…)): it runs on every explanation and template sent,
  // and the arrays it built were a share of the encoder's garbage.
  if (Array.isArray(v)) {
    for (const x of v as unknown[]) if (!plainData(x)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const r = v as Record<string, unknown>;
  for (const k in r) if (!plainData(r[k])) return false;
  return true;
}

export class WireEncoder {
  private table: EncodeTable;
  private readonly mirror = new StatusMirror();
  private fresh = true;
  private readonly size: number;
  private readonly version: WireVersion;

  constructor(options: WireOptions = {}) {
    this.size = options.tableSize ?? WIRE_TABLE_SIZE;
    this.version = options.version ?? 1;
    this.table = new EncodeTable(this.size);
  }

  /** The stream begins with this snapshot (the reader seeds its decoder with the same one). */
  seed(state: ClusterState): void {
    this.table = new EncodeTable(this.size);
    this.mirror.seed(state);
    this.fresh = false;
  }

  encode(events: readonly TimelineEvent[]): WireFrame {
    const first = events[0]?.seq ?? 0;
    const frame: WireFrame = { type: 'wire', v: this.version, s: first, e: [] };
    if (this.fresh) {
      frame.r = 1;
      this.fresh = false;
      this.table = new EncodeTable(this.size);
      this.mirror.clear();
    }
    let seq = first - 1;
    let t = 0;
    let node: string | undefined;
    for (const e of events) {
      frame.e.push(this.event(e, seq, t, node));
      seq = e.seq;
      t = e.t;
      node = e.node;
      this.mirror.apply(e);
    }
    return frame;
  }

  private s(v: string): Lit {
    return this.table.ref(v);
  }

  private cid = (_k: string, v: unknown): unknown => {
    if (typeof v !== 'string') return v === null ? null : [v];
    if (_k !== 'containerID') return this.s(v);
    const m = CID.exec(v);
    return m ? [this.s(m[1] as string), this.s(m[2] as string)] : this.s(v);
  };

  /**
   * A value as its slot when this stream sent it before (v2), else as `send` writes it — after
   * which both ends intern it (the decoder once it has read it, so after the strings inside).
   */
  private value(v: unknown, send: () => unknown): unknown {
    const json = JSON.stringify(v);
    const slot = this.table.valueSlot(json);
    if (slot !== undefined) return slot;
    const out = send();
    this.table.addValue(json);
    return out;
  }

  /** An explanation under `key` (v1, or not plain data), or interned under `interned`. */
  private whyAs(o: Record<string, unknown>, key: string, interned: string, w: Explanation): void {
    if (this.version >= 2 && plainData(w)) o[interned] = this.value(w, () => this.why(w));
    else o[key] = this.why(w);
  }

  /**
   * A record (v2) as a template — interned like any value — and its holes: `[template or slot,
   * ...holes]`; undefined when the template is not plain data (the caller sends it as v1 does).
   */
  private templated(
    v: Record<string, unknown>,
    t: number,
    cid: (k: string, v: unknown) => unknown = this.cid,
  ): unknown[] | undefined {
    // One pass: the template, and its holes as met (sent only when the template is plain data).
    const met: [string, unknown][] = [];
    const tpl = template(v, (k, x) => met.push([k, x]));
    if (!plainData(tpl)) return undefined;
    // The holes' strings are interned before the template, as the decoder meets them.
    const out: unknown[] = [undefined];
    for (const [k, x] of met) {
      if (!TEMPLATE_TIMES.has(k)) out.push(cid(k, x));
      else if (x instanceof Date && Number.isFinite(x.getTime())) out.push(t - x.getTime());
      else out.push([x]);
    }
    out[0] = this.value(tpl, () => tpl);
    return out;
  }

  /**
   * A node's usage (v2): `[at − t, ...pods]`, each pod `[its place on the node in the snapshot or
   * its uid, template, ...figures]` — the template (the pod's usage with its figures as 0: the
   * same for pods of the same containers) interned like any value, the figures in its order.
   * Undefined when the usage is not of that shape (then it goes as itself).
   */
  private usage(node: string, t: number, u: Record<string, unknown>): unknown[] | undefined {
    const { at, pods } = u;
    if (typeof at !== 'number' || t + (at - t) !== at || !isRecord(pods)) return undefined;
    if (Object.keys(u).some((k) => k !== 'at' && k !== 'pods' && u[k] !== undefined))
      return undefined;
    if (!plainData(pods)) return undefined;
    const out: unknown[] = [at - t];
    for (const uid of Object.keys(pods)) {
      if (pods[uid] === undefined) continue;
      const figures: (number | string)[] = [];
      const tpl = numbersOut(withSums(pods[uid]), (n) => figures.push(figureOut(n)));
      const place = this.mirror.placeOf(node, uid);
      out.push([place ?? uid, this.value(tpl, () => tpl), ...figures]);
    }
    return out;
  }

  private why(w: Explanation): Record<string, unknown> {
    const out: Record<string, unknown> = { i: this.s(w.id) };
    if (w.params !== undefined) out.p = w.params;
    if (w.rule !== undefined) out.r = this.s(w.rule);
    if (w.inputs !== undefined) {
      const params = w.params;
      out.n = Object.entries(w.inputs).map(([k, v]) =>
        params && Object.hasOwn(params, k) && params[k] === v ? k : [k, v],
      );
    }
    for (const k of Object.keys(w) as (keyof Explanation)[])
      if (!['id', 'params', 'rule', 'inputs'].includes(k) && w[k] !== undefined) out[k] = w[k];
    return out;
  }

  private event(
    e: TimelineEvent,
    prevSeq: number,
    prevT: number,
    prevNode: string | undefined,
  ): Record<string, unknown> {
    const o: Record<string, unknown> = { k: this.s(`${e.kind}:${e.type}`) };
    if (e.seq !== prevSeq + 1) o.q = e.seq;
    if (e.t !== prevT) o.t = e.t - prevT;
    if (e.node !== prevNode) o.n = this.s(e.node);
    const r = e as unknown as Record<string, unknown>;
    // v2: a CRI event's container id that the container's status holds goes as a flag (the
    // snapshot gave the reader every running container's id; a 64-hex id does not compress).
    const knownId =
      this.version >= 2 &&
      e.kind === 'cri' &&
      e.id !== undefined &&
      e.podUid !== undefined &&
      e.container !== undefined &&
      this.mirror.containerId(e.podUid, e.container) === e.id;
    if (knownId) o.I = 1;
    for (const [key, short] of SHORT) {
      const v = r[key];
      if (typeof v !== 'string' || (knownId && key === 'id')) continue;
      // v2: a pod the snapshot held, not in the table, goes as its place on its node (then interned).
      const place =
        key === 'podUid' && this.version >= 2 && !this.table.has(v)
          ? this.mirror.placeOf(e.node, v)
          : undefined;
      if (place !== undefined) {
        o.u = place;
        this.s(v);
      } else o[short] = this.s(v);
    }
    if (typeof e.cause === 'number') o.c = e.seq - e.cause;
    // v2: the runtime's time as its step from the event's (when that adds back exactly).
    if (
      this.version >= 2 &&
      e.kind === 'cri' &&
      typeof e.runtimeTime === 'number' &&
      e.t + (e.runtimeTime - e.t) === e.runtimeTime
    )
      o.R = e.runtimeTime - e.t;
    if ('why' in e && e.why !== undefined) this.whyAs(o, 'w', 'W', e.why);
    if (e.kind === 'container' && e.status) {
      const prev = this.mirror.get(e.podUid, e.list, e.name);
      o[prev ? 'D' : 'S'] = prev
        ? this.diff(prev, e.status, e.t)
        : mapStatus(e.status as unknown as Record<string, unknown>, this.cid);
    }
    if (e.kind === 'pod' && e.patch?.whyPhase) {
      const { whyPhase, ...patch } = e.patch;
      const P: Record<string, unknown> = patch;
      this.whyAs(P, 'whyPhase', 'W', whyPhase);
      o.P = P;
    }
    if (this.version >= 2) {
      if ((e.kind === 'pod' || e.kind === 'node') && isRecord(e.condition)) {
        const K = this.templated(e.condition, e.t);
        if (K) o.K = K;
      }
      if (e.kind === 'cri' && isRecord(e.detail) && plainData(e.detail))
        o.d = this.value(e.detail, () => e.detail);
      if (e.kind === 'node' && e.usage) {
        const G = this.usage(e.node, e.t, e.usage as unknown as Record<string, unknown>);
        if (G) o.G = G;
      }
    }
    for (const key of Object.keys(r)) {
      if (r[key] === undefined || handled(e, key, r[key])) continue;
      if (key === 'patch' && o.P !== undefined) continue;
      if (key === 'condition' && o.K !== undefined) continue;
      if (key === 'detail' && o.d !== undefined) continue;
      if (key === 'usage' && o.G !== undefined) continue;
      if (key === 'runtimeTime' && o.R !== undefined) continue;
      if (key.length < 2) throw new WireError(`event field "${key}" cannot be sent`);
      o[key] = r[key];
    }
    return o;
  }

  private diff(
    prev: V1ContainerStatus,
    next: V1ContainerStatus,
    t: number,
  ): Record<string, unknown> {
    const p = prev as unknown as Record<string, unknown>;
    const n = next as unknown as Record<string, unknown>;
    const set: Record<string, unknown> = {};
    const del: string[] = [];
    let lastIsPrevState = false;
    for (const k of Object.keys(n)) {
      if (n[k] === undefined || equal(p[k], n[k])) continue;
      if (k === 'lastState' && p.state !== undefined && equal(p.state, n[k])) {
        lastIsPrevState = true;
        continue;
      }
      set[k] = n[k];
    }
    for (const k of Object.keys(p)) if (p[k] !== undefined && n[k] === undefined) del.push(k);
    const out: Record<string, unknown> = {};
    // v2: a container id equal to the previous status's (inside a new state) goes as [].
    const same = this.version >= 2 && typeof p.containerID === 'string' ? p.containerID : null;
    const cid = (k: string, v: unknown) =>
      k === 'containerID' && same !== null && v === same ? [] : this.cid(k, v);
    // v2: the changed fields as a template (a kill's is the same for every container) and holes.
    const changed = Object.keys(set).length > 0;
    const tpl = this.version >= 2 && changed ? this.templated(set, t, cid) : undefined;
    if (tpl) out.t = tpl;
    else if (changed) out.s = mapStatus(set, cid);
    if (del.length > 0) out.x = del;
    if (lastIsPrevState) out.L = 1;
    return out;
  }
}

/** Top-level string fields sent interned, under one-letter names, in this order. */
const SHORT: readonly (readonly [string, string])[] = [
  ['podUid', 'p'],
  ['id', 'i'],
  ['container', 'C'],
  ['name', 'N'],
  ['list', 'l'],
  ['source', 'o'],
  ['from', 'f'],
  ['to', 'T'],
];
/** Fields the encoder writes in its own way (the rest are copied as they are). */
function handled(e: TimelineEvent, key: string, v: unknown): boolean {
  switch (key) {
    case 'kind':
    case 'type':
    case 'seq':
    case 't':
    case 'node':
      return true;
    case 'cause':
      return typeof v === 'number';
    case 'why':
      return v !== undefined;
    case 'status':
      return e.kind === 'container';
    default:
      return typeof v === 'string' && SHORT_KEYS.has(key);
  }
}
const SHORT_KEYS = new Set(SHORT.map(([k]) => k));

// ── decoder ──────────────────────────────────────────────────────────────────────────────────

export class WireDecoder {
  private table: DecodeTable;
  private readonly mirror = new StatusMirror();
  private readonly size: number;

  constructor(options: WireOptions = {}) {
    this.size = options.tableSize ?? WIRE_TABLE_SIZE;
    this.table = new DecodeTable(this.size);
  }

  /** The stream began with this snapshot. */
  seed(state: ClusterState): void {
    this.table = new DecodeTable(this.size);
    this.mirror.seed(state);
  }

  decode(frame: unknown): TimelineEvent[] {
    if (!isRecord(frame) || frame.type !== 'wire')
      throw new WireError('not a wire frame (expected {type: "wire", …})');
    if (frame.v !== 1 && frame.v !== 2)
      throw new WireError(`wire version ${String(frame.v)} is not 1 or ${WIRE_VERSION}`);
    if (typeof frame.s !== 'number' || !Number.isSafeInteger(frame.s))
      throw new WireError('wire frame without a first seq');
    if (!Array.isArray(frame.e)) throw new WireError('wire frame without events');
    if (frame.r === 1) {
      this.table = new DecodeTable(this.size);
      this.mirror.clear();
    }
    const out: TimelineEvent[] = [];
    let seq = frame.s - 1;
    let t = 0;
    let node: string | undefined;
    for (const [i, raw] of (frame.e as unknown[]).entries()) {
      if (!isRecord(raw)) throw new WireError(`event ${i} is not an object`);
      const e = this.event(raw, seq, t, node, i);
      out.push(e);
      seq = e.seq;
      t = e.t;
      node = e.node;
      this.mirror.apply(e);
    }
    return out;
  }

  private cid = (k: string, v: unknown): unknown => {
    if (v === null) return null;
    if (Array.isArray(v)) {
      if (v.length === 1) return v[0];
      if (k !== 'containerID' || v.length !== 2) throw new WireError(`bad ${k}`);
      return `${this.table.read(v[0], k)}://${this.table.read(v[1], k)}`;
    }
    return this.table.read(v, k);
  };

  /** A value (v2): a slot number for one sent before, else as `read` reads it, then interned. */
  private value<T>(raw: unknown, what: string, read: (raw: unknown) => T): T {
    if (typeof raw === 'number') return this.table.value(raw, what) as T;
    const v = read(raw);
    this.table.putValue(v);
    return v;
  }

  /** A v2 template and its holes (`[template or slot, ...holes]`) as the record it stands for. */
  private untemplated(
    raw: unknown,
    t: number,
    what: string,
    cid: (k: string, v: unknown) => unknown = this.cid,
  ): Record<string, unknown> {
    if (!Array.isArray(raw) || raw.length === 0) throw new WireError(`${what}: bad template`);
    const [ref, ...holes] = raw as unknown[];
    const literal = typeof ref !== 'number';
    if (literal && !isRecord(ref)) throw new WireError(`${what}: bad template`);
    const tpl = literal ? ref : this.table.value(ref, what);
    if (!isRecord(tpl)) throw new WireError(`${what}: bad template`);
    let n = 0;
    const out = filled(tpl, (k) => {
      if (n >= holes.length) throw new WireError(`${what}: fewer holes than its template has`);
      const x = holes[n++];
      if (!TEMPLATE_TIMES.has(k)) return cid(k, x);
      if (typeof x === 'number') return new Date(t - x);
      // As the transport would have revived it under its own key.
      if (Array.isArray(x) && x.length === 1) {
        const revived: Record<string, unknown> = { [k]: x[0] as unknown };
        return reviveInPlace<Record<string, unknown>>(revived)[k];
      }
      throw new WireError(`${what}: bad time "${k}"`);
    });
    if (n !== holes.length) throw new WireError(`${what}: more holes than its template has`);
    if (literal) this.table.putValue(tpl);
    return out;
  }

  /** A node's usage as the encoder's `usage` wrote it. */
  private usage(node: string, t: number, raw: unknown, what: string): Record<string, unknown> {
    if (!Array.isArray(raw) || typeof raw[0] !== 'number') throw new WireError(`${what}: bad`);
    const pods: Record<string, unknown> = {};
    for (const item of (raw as unknown[]).slice(1)) {
      if (!Array.isArray(item) || item.length < 2) throw new WireError(`${what}: bad pod`);
      const [ref, tplRaw, ...figures] = item as unknown[];
      const uid = typeof ref === 'string' ? ref : this.mirror.podAt(node, ref);
      if (uid === undefined) throw new WireError(`${what}: no pod at place ${String(ref)}`);
      const tpl = this.value(tplRaw, what, (r) => r);
      let n = 0;
      const usage = numbersIn(tpl, () => {
        if (n >= figures.length)
          throw new WireError(`${what}: fewer figures than its template has`);
        return figureIn(figures[n++], what);
      });
      if (n !== figures.length) throw new WireError(`${what}: more figures than its template has`);
      if (isRecord(usage) && isRecord(usage.containers))
        for (const k of POD_SUMS) if (usage[k] === SUM) usage[k] = podSum(usage.containers, k);
      // As JSON.parse would make it, whatever the uid (even "__proto__").
      setOwn(pods, uid, usage);
    }
    return { at: t + raw[0], pods };
  }

  /** An explanation sent under `key` (as itself) or `interned` (v2: a value), if either. */
  private whyOf(
    o: Record<string, unknown>,
    key: string,
    interned: string,
  ): Explanation | undefined {
    if (o[key] !== undefined && o[interned] !== undefined)
      throw new WireError(`explanation given twice`);
    if (o[interned] !== undefined)
      return this.value(o[interned], 'explanation', (r) => this.why(r));
    return o[key] === undefined ? undefined : this.why(o[key]);
  }

  private why(raw: unknown): Explanation {
    if (!isRecord(raw)) throw new WireError('explanation is not an object');
    const w: Record<string, unknown> = { id: this.table.read(raw.i, 'why.id') };
    const params = raw.p;
    if (params !== undefined) {
      if (!isRecord(params)) throw new WireError('explanation params are not an object');
      w.params = params;
    }
    if (raw.r !== undefined) w.rule = this.table.read(raw.r, 'why.rule');
    if (raw.n !== undefined) {
      if (!Array.isArray(raw.n)) throw new WireError('explanation inputs are not a list');
      const inputs: Record<string, unknown> = {};
      for (const item of raw.n as unknown[]) {
        if (typeof item === 'string') {
          if (!isRecord(params) || !Object.hasOwn(params, item))
            throw new WireError(`explanation input "${item}" names no param`);
          inputs[item] = params[item];
        } else if (Array.isArray(item) && item.length === 2 && typeof item[0] === 'string')
          inputs[item[0]] = item[1];
        else throw new WireError('explanation input is neither a key nor a [key, value] pair');
      }
      w.inputs = inputs;
    }
    for (const k of Object.keys(raw)) if (k.length > 1) carry(w, k, raw[k], 'explanation');
    return w as unknown as Explanation;
  }

  private event(
    o: Record<string, unknown>,
    prevSeq: number,
    prevT: number,
    prevNode: string | undefined,
    i: number,
  ): TimelineEvent {
    const kt = this.table.read(o.k, `event ${i} kind`);
    const colon = kt.indexOf(':');
    if (colon <= 0) throw new WireError(`event ${i}: bad kind "${kt}"`);
    const seq = o.q === undefined ? prevSeq + 1 : o.q;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq))
      throw new WireError(`event ${i}: bad seq`);
    if (o.t !== undefined && typeof o.t !== 'number') throw new WireError(`event ${i}: bad time`);
    const t = prevT + (o.t ?? 0);
    const node = o.n === undefined ? prevNode : this.table.read(o.n, `event ${i} node`);
    if (node === undefined) throw new WireError(`event ${i}: no node`);
    const e: Record<string, unknown> = {
      kind: kt.slice(0, colon),
      type: kt.slice(colon + 1),
      seq,
      t,
      node,
    };
    if (o.u !== undefined) {
      const uid = o.p === undefined ? this.mirror.podAt(node, o.u) : undefined;
      if (uid === undefined)
        throw new WireError(`event ${i}: no pod at place ${JSON.stringify(o.u)}`);
      e.podUid = this.table.read(uid, `event ${i} podUid`);
    }
    for (const [key, short] of SHORT)
      if (o[short] !== undefined) e[key] = this.table.read(o[short], `event ${i} ${key}`);
    if (o.I !== undefined) {
      const id =
        o.I === 1 &&
        o.i === undefined &&
        typeof e.podUid === 'string' &&
        typeof e.container === 'string'
          ? this.mirror.containerId(e.podUid, e.container)
          : undefined;
      if (id === undefined)
        throw new WireError(`event ${i}: a container id flagged as known is not`);
      e.id = id;
    }
    if (o.R !== undefined) {
      if (typeof o.R !== 'number') throw new WireError(`event ${i}: bad runtime time`);
      e.runtimeTime = t + o.R;
    }
    if (o.c !== undefined) {
      if (typeof o.c !== 'number') throw new WireError(`event ${i}: bad cause`);
      e.cause = seq - o.c;
    }
    const why = this.whyOf(o, 'w', 'W');
    if (why) e.why = why;
    if (o.S !== undefined) {
      if (!isRecord(o.S)) throw new WireError(`event ${i}: bad status`);
      e.status = mapStatus(o.S, this.cid);
    } else if (o.D !== undefined) e.status = this.undiff(e, o.D, t, i);
    if (o.P !== undefined) {
      if (!isRecord(o.P)) throw new WireError(`event ${i}: bad patch`);
      const patch: Record<string, unknown> = { ...o.P };
      delete patch.W;
      patch.whyPhase = this.whyOf(o.P, 'whyPhase', 'W');
      e.patch = patch;
    }
    if (o.K !== undefined) e.condition = this.untemplated(o.K, t, `event ${i} condition`);
    if (o.d !== undefined)
      e.detail = this.value(o.d, `event ${i} detail`, (r) => {
        if (!isRecord(r)) throw new WireError(`event ${i}: bad detail`);
        return r;
      });
    if (o.G !== undefined) e.usage = this.usage(node, t, o.G, `event ${i} usage`);
    for (const k of Object.keys(o)) {
      if (k.length > 1) carry(e, k, o[k], `event ${i}`);
      else if (!KNOWN_SHORT.has(k)) throw new WireError(`event ${i}: unknown field "${k}"`);
    }
    return e as unknown as TimelineEvent;
  }

  private undiff(
    e: Record<string, unknown>,
    raw: unknown,
    t: number,
    i: number,
  ): V1ContainerStatus {
    if (!isRecord(raw)) throw new WireError(`event ${i}: bad status diff`);
    const prev = this.mirror.get(String(e.podUid), String(e.list), String(e.name));
    if (!prev) throw new WireError(`event ${i}: a status diff for a container never sent`);
    const p = prev as unknown as Record<string, unknown>;
    const set = raw.s === undefined ? {} : raw.s;
    if (!isRecord(set)) throw new WireError(`event ${i}: bad status diff`);
    const cid = (k: string, v: unknown) => {
      if (!(k === 'containerID' && Array.isArray(v) && v.length === 0)) return this.cid(k, v);
      if (typeof p.containerID !== 'string')
        throw new WireError(`event ${i}: "the same container id" for a status without one`);
      return p.containerID;
    };
    if (raw.t !== undefined && raw.s !== undefined)
      throw new WireError(`event ${i}: a status diff given twice`);
    const mapped =
      raw.t !== undefined
        ? this.untemplated(raw.t, t, `event ${i} status`, cid)
        : mapStatus(set, cid);
    const del = raw.x === undefined ? [] : raw.x;
    if (!Array.isArray(del)) throw new WireError(`event ${i}: bad status diff`);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(p)) if (p[k] !== undefined && !del.includes(k)) out[k] = p[k];
    Object.assign(out, mapped);
    if (raw.L === 1) out.lastState = p.state;
    return out as unknown as V1ContainerStatus;
  }
}

const KNOWN_SHORT = new Set([
  'k',
  'q',
  't',
  'n',
  'c',
  'w',
  'S',
  'D',
  'P',
  'W',
  'K',
  'd',
  'I',
  'R',
  'u',
  'G',
  ...SHORT.map(([, s]) => s),
]);

/**
 * The events of one streamed batch, whichever way it came: a wire frame (decoded, advancing the
 * decoder) or plain events.
 */
export function batchEvents(
  decoder: WireDecoder,
  message: WireFrame | { type: 'events'; events: TimelineEvent[] },
): TimelineEvent[] {
  return message.type === 'wire' ? decoder.decode(message) : message.events;
}
