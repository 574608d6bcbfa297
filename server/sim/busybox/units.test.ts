import { describe, expect, it } from 'vitest';
import { parseDurationMs, parseSize, parseSleepSeconds } from './units';

describe('busybox sleep arguments', () => {
  it('reads seconds, fractions and suffixes', () => {
    expect(parseSleepSeconds('2')).toBe(2000);
    expect(parseSleepSeconds('0.5')).toBe(500);
    expect(parseSleepSeconds('.25')).toBe(250);
    expect(parseSleepSeconds('1m')).toBe(60_000);
    expect(parseSleepSeconds('2h')).toBe(7_200_000);
    expect(parseSleepSeconds('1d')).toBe(86_400_000);
    expect(parseSleepSeconds('infinity')).toBe(Infinity);
    expect(parseSleepSeconds('inf')).toBe(Infinity);
  });
  it('rejects what busybox rejects', () => {
    for (const bad of ['', 'x', '1x', '-1', '1.2.3', '1ms'])
      expect(parseSleepSeconds(bad)).toBeUndefined();
  });
  it('catalogue durations also take ms', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('30s')).toBe(30_000);
  });
});

describe('dd sizes', () => {
  it('uses dd suffixes (M = MiB, MB = 10^6) and Kubernetes quantities', () => {
    expect(parseSize('64M')).toBe(64 * 1024 * 1024);
    expect(parseSize('64MB')).toBe(64_000_000);
    expect(parseSize('1G')).toBe(1024 ** 3);
    expect(parseSize('4k')).toBe(4096);
    expect(parseSize('2b')).toBe(1024);
    expect(parseSize('3w')).toBe(6);
    expect(parseSize('24Mi')).toBe(24 * 1024 * 1024);
    expect(parseSize('100')).toBe(100);
    expect(parseSize('12X')).toBeUndefined();
    expect(parseSize('M')).toBeUndefined();
  });
});
