/**
 * Decoding a relist's two list answers without decoding what did not change.
 *
 * A relist asks for ListPodSandbox and ListContainers every second, and between two relists
 * almost every record is byte for byte what it was. Decoding those bytes again (protobufjs, then
 * convert.ts) was most of a quiet relist's CPU. `ListDecoder` walks the response's top-level
 * protobuf framing instead — field 1 is the repeated record in both responses — and compares each
 * record's bytes with the bytes it decoded last time under the same id. Equal bytes decode to an
 * equal record, so the previous record object is reused; only new or changed records go through
 * the normal deserializer (batched into one synthetic response, so the options and conversion
 * are exactly those of the plain path). Record order is the response's, whatever it is (containerd
 * lists from a map and may reorder between calls; the comparison is per record, not per answer).
 *
 * The id is only a lookup hint: reuse is decided by byte equality, so a garbled or duplicate id
 * costs a decode, never a wrong record. Bytes that do not parse as protobuf throw
 * `ListFramingError`, which the client reports like grpc-js reports an unparsable answer.
 *
 * Returned records are shared between calls: callers must treat them as immutable (the engine
 * does; lib/kubelet never mutates its inputs).
 */
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { toRuntimeContainer, toRuntimeSandbox } from './convert';
import { criDefinitions } from './proto';

export class ListFramingError extends Error {
  override name = 'ListFramingError';
}

/** Field 1, wire type 2 (length-delimited): the tag byte of the repeated record field. */
const RECORD_TAG = 0x0a;

/**
 * The scanner below reads varints into `at` (the position after the varint) instead of
 * returning tuples: it runs for every record of every relist and must not allocate.
 */
let at = 0;

/** Reads a base-128 varint at `pos` (values up to 2^53) and sets `at` past it. */
function varint(buf: Buffer, pos: number): number {
  let value = 0;
  let scale = 1;
  const stop = Math.min(buf.length, pos + 10);
  for (let i = pos; i < stop; i++) {
    const b = buf[i] as number;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      at = i + 1;
      return value;
    }
    scale *= 128;
  }
  throw new ListFramingError(`truncated varint at byte ${pos}`);
}

/** Skips one field of wire type `wt` whose value starts at `pos`; returns the next position. */
function skip(buf: Buffer, pos: number, wt: number): number {
  switch (wt) {
    case 0:
      varint(buf, pos);
      return at;
    case 1:
      return pos + 8;
    case 2: {
      const len = varint(buf, pos);
      return at + len;
    }
    case 5:
      return pos + 4;
    default:
      // Groups (3, 4) are not used by the CRI; anything else is not protobuf.
      throw new ListFramingError(`unsupported wire type ${wt} at byte ${pos}`);
  }
}

/**
 * The repeated field-1 records of a list response, in order, as flat triples
 * [frame start (tag), record start, record end, …]; other fields are skipped.
 */
export function scanRecords(buf: Buffer): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const frame = pos;
    const tag = varint(buf, pos);
    if (tag === RECORD_TAG) {
      const len = varint(buf, at);
      const start = at;
      const end = start + len;
      if (end > buf.length) throw new ListFramingError(`record at byte ${frame} runs past the end`);
      out.push(frame, start, end);
      pos = end;
    } else {
      if (tag < 8) throw new ListFramingError(`field number 0 at byte ${frame}`);
      // Field numbers stop at 2^29 − 1: a longer tag is damage (protobufjs reads 32 bits of it).
      if (tag >= 2 ** 32) throw new ListFramingError(`field number out of range at byte ${frame}`);
      // Field 1 is the record list: any wire type but length-delimited is a broken answer
      // (protobufjs refuses it too), never an unknown field to skip — skipping it would read
      // as "the runtime lists nothing".
      if (Math.floor(tag / 8) === 1) {
        throw new ListFramingError(`field 1 with wire type ${tag & 7} at byte ${frame}`);
      }
      pos = skip(buf, at, tag & 7);
      if (pos > buf.length) throw new ListFramingError(`field at byte ${frame} runs past the end`);
    }
  }
  return out;
}

/** The record's own field 1 (its id, a string in both Container and PodSandbox), as latin1. */
function recordId(buf: Buffer, start: number, end: number): string | undefined {
  let pos = start;
  while (pos < end) {
    const tag = varint(buf, pos);
    if (tag === RECORD_TAG) {
      const len = varint(buf, at);
      return at + len <= end ? buf.toString('latin1', at, at + len) : undefined;
    }
    pos = skip(buf, at, tag & 7);
  }
  return undefined;
}

interface Entry<T> {
  /** undefined when the record has no readable id (it is then never reused by id). */
  id: string | undefined;
  bytes: Buffer;
  value: T;
}

const same = (buf: Buffer, start: number, end: number, bytes: Buffer): boolean =>
  bytes.length === end - start && buf.compare(bytes, 0, bytes.length, start, end) === 0;

export class ListDecoder<T> {
  /** The last answer's records in its order (the usual next answer lists them the same way). */
  private order: Entry<T>[] = [];
  private byId = new Map<string, Entry<T>>();
  private values: T[] = [];
  /** Records decoded (not reused) by the last call, for tests and metrics. */
  lastDecoded = 0;
  /** Whether the last answer was byte for byte the one before (nothing was scanned). */
  lastUnchanged = false;
  /**
   * The last answer's bytes, in a buffer kept from call to call (grown, never shrunk): an answer
   * equal to it is recognized by one comparison, before any scanning.
   */
  private last = Buffer.alloc(0);
  private lastLength = -1;

  /** `decodeFrames` decodes a response made of the given whole frames (tag + length + record). */
  constructor(private readonly decodeFrames: (response: Buffer) => T[]) {}

  decode(bytes: Buffer): T[] {
    if (bytes.length === this.lastLength && bytes.compare(this.last, 0, this.lastLength) === 0) {
      this.lastDecoded = 0;
      this.lastUnchanged = true;
      return this.values.slice();
    }
    this.lastUnchanged = false;
    const values = this.decodeChanged(bytes);
    if (this.last.length < bytes.length)
      this.last = Buffer.allocUnsafe(Math.max(bytes.length, 2 * this.last.length));
    bytes.copy(this.last, 0);
    this.lastLength = bytes.length;
    return values;
  }

  private decodeChanged(bytes: Buffer): T[] {
    const frames = scanRecords(bytes);
    const count = frames.length / 3;
    // The common case: the same records in the same order. Compared in place, no allocation.
    if (count === this.order.length) {
      let i = 0;
      for (; i < count; i++) {
        const e = this.order[i] as Entry<T>;
        if (!same(bytes, frames[3 * i + 1] as number, frames[3 * i + 2] as number, e.bytes)) break;
      }
      if (i === count) {
        this.lastDecoded = 0;
        return this.values.slice();
      }
    }
    const order: Entry<T>[] = new Array<Entry<T>>(count);
    const byId = new Map<string, Entry<T>>();
    const missing: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = frames[3 * i + 1] as number;
      const end = frames[3 * i + 2] as number;
      const positional = this.order[i];
      let hit = positional && same(bytes, start, end, positional.bytes) ? positional : undefined;
      if (!hit) {
        const id = recordId(bytes, start, end);
        const byOld = id === undefined ? undefined : this.byId.get(id);
        hit = byOld && same(bytes, start, end, byOld.bytes) ? byOld : undefined;
        if (!hit) {
          // A copy, so the entry does not pin the whole response buffer.
          order[i] = { id, bytes: Buffer.from(bytes.subarray(start, end)), value: undefined as T };
          missing.push(i);
          continue;
        }
      }
      order[i] = hit;
      if (hit.id !== undefined) byId.set(hit.id, hit);
    }
    if (missing.length > 0) {
      const parts = missing.map((i) =>
        bytes.subarray(frames[3 * i] as number, frames[3 * i + 2] as number),
      );
      const decoded = this.decodeFrames(Buffer.concat(parts));
      if (decoded.length !== missing.length) {
        throw new ListFramingError(
          `decoded ${decoded.length} records from ${missing.length} frames`,
        );
      }
      for (let j = 0; j < missing.length; j++) {
        const e = order[missing[j] as number] as Entry<T>;
        e.value = decoded[j] as T;
        if (e.id !== undefined) byId.set(e.id, e);
      }
    }
    this.order = order;
    this.byId = byId;
    this.values = order.map((e) => e.value);
    this.lastDecoded = missing.length;
    return this.values.slice();
  }

  /** Forgets everything (e.g. after the runtime restarted). */
  clear(): void {
    this.lastLength = -1;
    this.order = [];
    this.byId = new Map();
    this.values = [];
  }
}

export function containerListDecoder(): ListDecoder<RuntimeContainer> {
  const deserialize = criDefinitions().runtime.ListContainers.responseDeserialize;
  return new ListDecoder((bytes) => deserialize(bytes).containers.map(toRuntimeContainer));
}

export function sandboxListDecoder(): ListDecoder<RuntimeSandbox> {
  const deserialize = criDefinitions().runtime.ListPodSandbox.responseDeserialize;
  return new ListDecoder((bytes) => deserialize(bytes).items.map(toRuntimeSandbox));
}
