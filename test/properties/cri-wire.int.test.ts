/**
 * Hostile bytes from a runtime: the two list answers of every relist go through a hand-written
 * protobuf framing scanner and a per-record cache (server/cri/list-cache.ts) before conversion.
 * Whatever bytes arrive — arbitrary, or a valid answer with bytes flipped, cut, inserted or
 * repeated — the fast path either gives exactly the records the plain protobufjs path gives, or
 * refuses with an Error (reported as INTERNAL by the client): never a record protobufjs would not
 * make, never an exception of another kind, never a poisoned cache. Every valid encoding —
 * including unknown fields of any wire type, as a newer runtime sends — is accepted.
 * Arbitrary decoded records through convert.ts: server/cri/convert.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { toRuntimeContainer, toRuntimeSandbox } from '@/server/cri/convert';
import type { Container } from '@/server/cri/generated/runtime/v1/Container';
import type { PodSandbox } from '@/server/cri/generated/runtime/v1/PodSandbox';
import { containerListDecoder, sandboxListDecoder } from '@/server/cri/list-cache';
import { criDefinitions } from '@/server/cri/proto';

const defs = criDefinitions().runtime;
const plainContainers = (b: Buffer): RuntimeContainer[] =>
  defs.ListContainers.responseDeserialize(b).containers.map(toRuntimeContainer);
const plainSandboxes = (b: Buffer): RuntimeSandbox[] =>
  defs.ListPodSandbox.responseDeserialize(b).items.map(toRuntimeSandbox);

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('<script>alert(1)</script>', '\u0000\u202e', 'x'.repeat(300), '"}]', '__proto__'),
);
const int64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
  fc.constantFrom('0', '-1', '1700000000000000000', '9223372036854775807'),
);
const map = fc.dictionary(hostile, hostile, { maxKeys: 4 });
const container: fc.Arbitrary<Container> = fc.record({
  id: fc.oneof(fc.constantFrom('a', 'b', 'c', ''), hostile),
  pod_sandbox_id: hostile,
  metadata: fc.record({ name: hostile, attempt: fc.nat() }),
  image: fc.record({ image: hostile }),
  image_ref: hostile,
  state: fc.constantFrom(
    'CONTAINER_CREATED',
    'CONTAINER_RUNNING',
    'CONTAINER_EXITED',
    'CONTAINER_UNKNOWN',
  ),
  created_at: int64,
  labels: map,
  annotations: map,
});
const sandbox: fc.Arbitrary<PodSandbox> = fc.record({
  id: fc.oneof(fc.constantFrom('a', 'b', ''), hostile),
  metadata: fc.record({ name: hostile, uid: hostile, namespace: hostile, attempt: fc.nat() }),
  state: fc.constantFrom('SANDBOX_READY', 'SANDBOX_NOTREADY'),
  created_at: int64,
  labels: map,
  annotations: map,
  runtime_handler: hostile,
});

type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'cut'; at: number }
  | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'repeat'; at: number; length: number }
  | { op: 'set'; at: number; byte: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({
    op: fc.constant('repeat' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 64 }),
  }),
  fc.record({
    op: fc.constant('set' as const),
    at: fc.nat(),
    byte: fc.constantFrom(0x00, 0x0a, 0x0f, 0x7f, 0x80, 0xff, 0x12, 0x1a),
  }),
);

function mutate(bytes: Buffer, ms: readonly Mutation[]): Buffer {
  let b = Buffer.from(bytes);
  for (const m of ms) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    if (m.op === 'flip') b[at] = (b[at] ?? 0) ^ (1 << m.bit);
    else if (m.op === 'set') b[at] = m.byte;
    else if (m.op === 'cut') b = b.subarray(0, at);
    else if (m.op === 'insert')
      b = Buffer.concat([b.subarray(0, at), Buffer.from(m.bytes), b.subarray(at)]);
    else
      b = Buffer.concat([
        b.subarray(0, at + m.length),
        b.subarray(at, at + m.length),
        b.subarray(at + m.length),
      ]);
  }
  return b;
}

/** protobuf varint. */
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** The length of the single field-1 record of a one-record response (its varint after the tag). */
function readLength(one: Buffer): number {
  let n = 0;
  let scale = 1;
  for (let i = 1; i < one.length; i++) {
    const b = one[i] ?? 0;
    n += (b & 0x7f) * scale;
    if (b < 0x80) return n;
    scale *= 128;
  }
  throw new Error('no length');
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
function attempt<T>(fn: () => T): Outcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The fast path agrees with the plain one on `bytes`, and its cache stays truthful afterwards. */
function agree<T>(
  decode: (b: Buffer) => T[],
  plain: (b: Buffer) => T[],
  bytes: Buffer,
  valid: Buffer,
): void {
  const fast = attempt(() => decode(bytes));
  const slow = attempt(() => plain(bytes));
  if (fast.ok) {
    // Records only from bytes protobufjs reads too, and exactly its records.
    expect(slow.ok).toBe(true);
    if (slow.ok) expect(fast.value).toEqual(slow.value);
  } else {
    // Refused with an Error (the client reports it as INTERNAL, naming the RPC). The scanner is
    // stricter than protobufjs about damaged framing (field 0, stray end-group tags), which
    // protobufjs skips leniently; that only ever refuses bytes no encoder writes.
    expect(fast.error).toBeInstanceOf(Error);
  }
  // A good answer afterwards decodes right (the cache kept nothing wrong from the bad one).
  expect(decode(valid)).toEqual(plain(valid));
}

describe('list answers from a hostile runtime', () => {
  it('ListContainers: mutated valid answers decode like protobufjs or fail cleanly', () => {
    fc.assert(
      fc.property(
        fc.array(container, { maxLength: 6 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (records, ms) => {
          const valid = defs.ListContainers.responseSerialize({ containers: records });
          const decoder = containerListDecoder();
          expect(decoder.decode(valid)).toEqual(plainContainers(valid));
          agree((b) => decoder.decode(b), plainContainers, mutate(valid, ms), valid);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
  });

  it('ListPodSandbox: mutated valid answers decode like protobufjs or fail cleanly', () => {
    fc.assert(
      fc.property(
        fc.array(sandbox, { maxLength: 6 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (records, ms) => {
          const valid = defs.ListPodSandbox.responseSerialize({ items: records });
          const decoder = sandboxListDecoder();
          expect(decoder.decode(valid)).toEqual(plainSandboxes(valid));
          agree((b) => decoder.decode(b), plainSandboxes, mutate(valid, ms), valid);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 400) },
    );
  });

  it('accepts unknown fields of every wire type, top-level and inside records (a newer runtime)', () => {
    const unknown = fc.record({
      field: fc.integer({ min: 2, max: 2 ** 29 - 1 }),
      wire: fc.constantFrom(0, 1, 2, 5),
      value: fc.uint8Array({ maxLength: 20 }),
      n: fc.nat(),
    });
    const encodeField = (u: {
      field: number;
      wire: number;
      value: Uint8Array;
      n: number;
    }): Buffer => {
      const tag = varint(u.field * 8 + u.wire);
      if (u.wire === 0) return Buffer.concat([tag, varint(u.n)]);
      if (u.wire === 1) return Buffer.concat([tag, Buffer.alloc(8, u.n % 256)]);
      if (u.wire === 5) return Buffer.concat([tag, Buffer.alloc(4, u.n % 256)]);
      return Buffer.concat([tag, varint(u.value.length), Buffer.from(u.value)]);
    };
    fc.assert(
      fc.property(
        fc.array(container, { maxLength: 4 }),
        fc.array(unknown, { maxLength: 4 }),
        fc.array(unknown, { maxLength: 3 }),
        (records, top, inner) => {
          // Each record framed by hand as field 1, with unknown fields appended inside it.
          const framed = records.map((r) => {
            const one = defs.ListContainers.responseSerialize({ containers: [r] });
            const payload = one.subarray(one.length - readLength(one));
            const inside = Buffer.concat([
              payload,
              ...inner.map((u) => encodeField({ ...u, field: u.field + 100 })),
            ]);
            return Buffer.concat([Buffer.from([0x0a]), varint(inside.length), inside]);
          });
          const bytes = Buffer.concat([...framed, ...top.map(encodeField)]);
          const fast = containerListDecoder().decode(bytes);
          expect(fast).toEqual(plainContainers(bytes));
          expect(fast).toHaveLength(records.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes never escape as anything but an Error', () => {
    const decoder = containerListDecoder();
    const valid = defs.ListContainers.responseSerialize({ containers: [] });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (raw) => {
        agree((b) => decoder.decode(b), plainContainers, Buffer.from(raw), valid);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 1000) },
    );
  });

  it('converted records are well-typed whatever the fields held', () => {
    fc.assert(
      fc.property(fc.array(container, { minLength: 1, maxLength: 4 }), (records) => {
        const bytes = defs.ListContainers.responseSerialize({ containers: records });
        for (const c of containerListDecoder().decode(bytes)) {
          expect(typeof c.id).toBe('string');
          expect(typeof c.name).toBe('string');
          expect(['created', 'running', 'exited', 'unknown']).toContain(c.state);
          expect(Number.isFinite(c.createdAt)).toBe(true);
          expect(Number.isInteger(c.restartCount)).toBe(true);
          expect(Object.getPrototypeOf(c.labels)).not.toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });
});
