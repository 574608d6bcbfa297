import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { Container } from './generated/runtime/v1/Container';
import type { PodSandbox } from './generated/runtime/v1/PodSandbox';
import { toRuntimeContainer, toRuntimeSandbox } from './convert';
import {
  containerListDecoder,
  ListFramingError,
  sandboxListDecoder,
  scanRecords,
} from './list-cache';
import { criDefinitions } from './proto';

const defs = criDefinitions().runtime;
const encodeContainers = (containers: Container[]): Buffer =>
  defs.ListContainers.responseSerialize({ containers });
const encodeSandboxes = (items: PodSandbox[]): Buffer =>
  defs.ListPodSandbox.responseSerialize({ items });
const plainContainers = (b: Buffer): RuntimeContainer[] =>
  defs.ListContainers.responseDeserialize(b).containers.map(toRuntimeContainer);
const plainSandboxes = (b: Buffer): RuntimeSandbox[] =>
  defs.ListPodSandbox.responseDeserialize(b).items.map(toRuntimeSandbox);

function container(id: string, extra: Partial<Container> = {}): Container {
  return {
    id,
    pod_sandbox_id: `sb-${id}`,
    metadata: { name: `c-${id}`, attempt: 0 },
    image: { image: 'podscope.local/busybox:1' },
    image_ref: 'sha256:abc',
    state: 'CONTAINER_RUNNING',
    created_at: '1700000000000000000',
    labels: { 'io.kubernetes.container.name': `c-${id}`, 'io.kubernetes.pod.uid': `u-${id}` },
    annotations: { 'io.kubernetes.container.restartCount': '0' },
    ...extra,
  };
}

function sandbox(id: string, extra: Partial<PodSandbox> = {}): PodSandbox {
  return {
    id,
    metadata: { name: `p-${id}`, uid: `u-${id}`, namespace: 'default', attempt: 0 },
    state: 'SANDBOX_READY',
    created_at: '1700000000000000000',
    labels: { app: 'web' },
    annotations: {},
    ...extra,
  };
}

describe('ListDecoder', () => {
  it('decodes like the plain deserializer, then reuses records whose bytes did not change', () => {
    const d = containerListDecoder();
    const first = encodeContainers([container('a'), container('b'), container('c')]);
    const one = d.decode(first);
    expect(one).toEqual(plainContainers(first));
    expect(d.lastDecoded).toBe(3);

    const two = d.decode(Buffer.from(first));
    expect(two).toEqual(one);
    expect(two).not.toBe(one); // a fresh array each time
    expect(two[0]).toBe(one[0]); // the same records
    expect(d.lastDecoded).toBe(0);
    expect(d.lastUnchanged).toBe(true); // recognized whole, before scanning

    const changed = encodeContainers([
      container('a'),
      container('b', { state: 'CONTAINER_EXITED' }),
      container('c'),
    ]);
    const three = d.decode(changed);
    expect(three).toEqual(plainContainers(changed));
    expect(d.lastDecoded).toBe(1);
    expect(three[0]).toBe(one[0]);
    expect(three[1]).not.toBe(one[1]);
    expect(three[1]?.state).toBe('exited');
    expect(d.lastUnchanged).toBe(false);

    // Same length, one byte different: not taken for the previous answer.
    const flipped = Buffer.from(changed);
    flipped[flipped.lastIndexOf(0x63)] = 0x64; // the last 'c' byte becomes 'd'
    const four = d.decode(flipped);
    expect(d.lastUnchanged).toBe(false);
    expect(four).toEqual(plainContainers(flipped));
    // And a garbled answer is refused without forgetting the last good one.
    expect(() => d.decode(Buffer.from([0x0a, 0x7f]))).toThrow();
    expect(d.decode(Buffer.from(flipped))).toEqual(four);
    expect(d.lastUnchanged).toBe(true);
  });

  it('follows records by id when the runtime lists them in another order', () => {
    const d = containerListDecoder();
    const one = d.decode(encodeContainers([container('a'), container('b'), container('c')]));
    const reordered = encodeContainers([
      container('c'),
      container('a'),
      container('d'),
      container('b'),
    ]);
    const two = d.decode(reordered);
    expect(two).toEqual(plainContainers(reordered));
    expect(d.lastDecoded).toBe(1);
    expect(two[0]).toBe(one[2]);
    expect(two[1]).toBe(one[0]);
    expect(two[3]).toBe(one[1]);
  });

  it('forgets records that left the list', () => {
    const d = containerListDecoder();
    const one = d.decode(encodeContainers([container('a'), container('b')]));
    d.decode(encodeContainers([container('b')]));
    const three = d.decode(encodeContainers([container('a'), container('b')]));
    expect(d.lastDecoded).toBe(1);
    expect(three[0]).not.toBe(one[0]);
    expect(three[0]).toEqual(one[0]);
  });

  it('decodes sandboxes the same way', () => {
    const d = sandboxListDecoder();
    const bytes = encodeSandboxes([sandbox('x'), sandbox('y', { state: 'SANDBOX_NOTREADY' })]);
    expect(d.decode(bytes)).toEqual(plainSandboxes(bytes));
    expect(d.decode(bytes)).toEqual(plainSandboxes(bytes));
    expect(d.lastDecoded).toBe(0);
  });

  it('never reuses a record for different bytes under the same id', () => {
    const d = containerListDecoder();
    d.decode(encodeContainers([container('a'), container('a', { state: 'CONTAINER_EXITED' })]));
    const bytes = encodeContainers([container('a', { state: 'CONTAINER_EXITED' }), container('a')]);
    expect(d.decode(bytes)).toEqual(plainContainers(bytes));
  });

  it('skips unknown fields of the response (a padded answer) and decodes an empty list', () => {
    const d = containerListDecoder();
    const padded = Buffer.concat([
      encodeContainers([container('a')]),
      Buffer.from([0xfa, 0x3e, 3, 0x61, 0x61, 0x61]),
    ]);
    expect(d.decode(padded)).toEqual(plainContainers(padded));
    expect(d.decode(Buffer.alloc(0))).toEqual([]);
  });

  it('throws ListFramingError on bytes that are not protobuf, and keeps its cache', () => {
    const d = containerListDecoder();
    const good = encodeContainers([container('a')]);
    const one = d.decode(good);
    expect(() => d.decode(Buffer.from([0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]))).toThrow(
      ListFramingError,
    );
    expect(() => d.decode(Buffer.from([0x0a, 0x40, 1, 2]))).toThrow(ListFramingError);
    expect(() => d.decode(Buffer.from([0x0a]))).toThrow(ListFramingError);
    expect(d.decode(good)[0]).toBe(one[0]);
  });

  it('scanRecords frames field 1 and skips every other wire type', () => {
    // field 2 varint, field 3 fixed64, field 4 fixed32, then one record of 2 bytes.
    const buf = Buffer.from([
      0x10, 0x96, 0x01, 0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x25, 1, 2, 3, 4, 0x0a, 2, 0x0a, 0,
    ]);
    expect(scanRecords(buf)).toEqual([17, 19, 21]);
  });

  it('equals the plain decode over any sequence of list changes (property)', () => {
    const state = fc.constantFrom<Container['state']>(
      'CONTAINER_CREATED',
      'CONTAINER_RUNNING',
      'CONTAINER_EXITED',
      'CONTAINER_UNKNOWN',
    );
    const record = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', ''),
      state,
      attempt: fc.nat(3),
      restart: fc.constantFrom('0', '1', 'x'),
    });
    const lists = fc.array(fc.array(record, { maxLength: 6 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(lists, (sequence) => {
        const d = containerListDecoder();
        for (const list of sequence) {
          const bytes = encodeContainers(
            list.map((r) =>
              container(r.id, {
                state: r.state,
                metadata: { name: `c-${r.id}`, attempt: r.attempt },
                annotations: { 'io.kubernetes.container.restartCount': r.restart },
              }),
            ),
          );
          expect(d.decode(bytes)).toEqual(plainContainers(bytes));
        }
      }),
    );
  });
});
