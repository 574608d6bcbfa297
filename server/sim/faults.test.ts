import { describe, expect, it } from 'vitest';
import { criDefinitions } from '@/server/cri/proto';
import { drawLatency, Faults, garbageMessage, padMessage } from './faults';
import { createRandom } from '@/lib/random';

describe('latency draws', () => {
  it('fits a log-normal to p50 and p99', () => {
    const random = createRandom('lat');
    const draws = Array.from({ length: 20_000 }, () =>
      drawLatency({ p50Ms: 2, p99Ms: 40 }, random),
    ).sort((a, b) => a - b);
    const q = (p: number) => draws[Math.floor(p * draws.length)] ?? NaN;
    expect(q(0.5)).toBeGreaterThan(1.8);
    expect(q(0.5)).toBeLessThan(2.2);
    expect(q(0.99)).toBeGreaterThan(32);
    expect(q(0.99)).toBeLessThan(50);
  });
  it('fixed and uniform specs', () => {
    const random = createRandom('u');
    expect(drawLatency(5, random)).toBe(5);
    expect(drawLatency({ fixedMs: 7 }, random)).toBe(7);
    for (let i = 0; i < 100; i++) {
      const d = drawLatency({ minMs: 10, maxMs: 20 }, random);
      expect(d).toBeGreaterThanOrEqual(10);
      expect(d).toBeLessThanOrEqual(20);
    }
  });
  it('rejects nonsense', () => {
    const faults = new Faults(createRandom('x'));
    expect(() => faults.set({ latency: { all: { p50Ms: 10, p99Ms: 1 } } })).toThrow(RangeError);
    expect(() => faults.set({ latency: { all: -1 } })).toThrow(RangeError);
    expect(() => faults.set({ errors: { Version: { code: 0 } } })).toThrow(RangeError);
    expect(() => faults.set({ errors: { Version: { code: 17 } } })).toThrow(RangeError);
  });
});

describe('error faults', () => {
  it('fail the next N calls, then stop', () => {
    const faults = new Faults(createRandom('e'), {
      errors: { ListContainers: { code: 14, times: 2 } },
    });
    expect(faults.error('ListContainers')).toEqual({
      code: 14,
      message: 'injected fault: ListContainers fails',
    });
    expect(faults.error('ListContainers')?.code).toBe(14);
    expect(faults.error('ListContainers')).toBeUndefined();
    expect(faults.error('Version')).toBeUndefined();
  });
  it('fail with a probability (seeded, so reproducible)', () => {
    const count = (seed: string) => {
      const faults = new Faults(createRandom(seed), {
        errors: { Status: { code: 4, probability: 0.25 } },
      });
      return Array.from({ length: 4000 }, () => faults.error('Status')).filter(Boolean).length;
    };
    expect(count('a')).toBe(count('a'));
    expect(count('a')).toBeGreaterThan(850);
    expect(count('a')).toBeLessThan(1150);
  });
  it('update merges per key; clear removes all', () => {
    const faults = new Faults(createRandom('m'), { hang: { Version: true } });
    faults.update({ hang: { Status: true }, events: 'stall' });
    expect(faults.hangs('Version')).toBe(true);
    expect(faults.hangs('Status')).toBe(true);
    expect(faults.eventsStalled).toBe(true);
    faults.clear();
    expect(faults.hangs('Version')).toBe(false);
  });
});

describe('oversize and garbage answers', () => {
  const { ListContainers } = criDefinitions().runtime;

  it('padding keeps a valid message that decodes to the same content', () => {
    const encoded = ListContainers.responseSerialize({ containers: [{ id: 'abc' }] });
    const padded = padMessage(encoded, 20 * 1024 * 1024);
    expect(padded.length).toBeGreaterThanOrEqual(20 * 1024 * 1024 - 16);
    expect(ListContainers.responseDeserialize(padded).containers.map((c) => c.id)).toEqual(['abc']);
  });

  it('garbage does not decode', () => {
    expect(() => ListContainers.responseDeserialize(garbageMessage(createRandom('g')))).toThrow();
  });
});
