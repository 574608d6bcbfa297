/**
 * Node pressure from resource figures against the kubelet's hard-eviction thresholds.
 *
 * Defaults are DefaultEvictionHard of pkg/kubelet/eviction/defaults_linux.go (kubernetes/kubernetes,
 * master as stored): memory.available<100Mi, nodefs.available<10%, nodefs.inodesFree<5%,
 * imagefs.available<15%, imagefs.inodesFree<5%. pid.available has no default threshold, so a kubelet
 * with default flags never reports PIDPressure=True. Signal → condition mapping as
 * pkg/kubelet/eviction/helpers.go: memory → MemoryPressure; nodefs/imagefs → DiskPressure;
 * pid → PIDPressure. A threshold is met when available < threshold.
 */
import type { NodeResources } from './runtime';
import { finite, isObj } from './util';

export type Threshold = { quantity: number } | { percentage: number };

export interface EvictionThresholds {
  'memory.available'?: Threshold;
  'nodefs.available'?: Threshold;
  'nodefs.inodesFree'?: Threshold;
  'imagefs.available'?: Threshold;
  'imagefs.inodesFree'?: Threshold;
  'pid.available'?: Threshold;
}

export type Signal = keyof EvictionThresholds;
export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

export const DEFAULT_EVICTION_HARD: Readonly<EvictionThresholds> = Object.freeze({
  'memory.available': { quantity: 100 * 2 ** 20 },
  'nodefs.available': { percentage: 0.1 },
  'nodefs.inodesFree': { percentage: 0.05 },
  'imagefs.available': { percentage: 0.15 },
  'imagefs.inodesFree': { percentage: 0.05 },
});

export const SIGNALS_BY_CONDITION: Readonly<Record<PressureCondition, readonly Signal[]>> = {
  MemoryPressure: ['memory.available'],
  DiskPressure: [
    'nodefs.available',
    'nodefs.inodesFree',
    'imagefs.available',
    'imagefs.inodesFree',
  ],
  PIDPressure: ['pid.available'],
};

const isBytes = (s: Signal) =>
  s === 'memory.available' || s === 'nodefs.available' || s === 'imagefs.available';

/** Observed available amount and capacity per signal; undefined when the figures are unknown. */
export function observe(
  resources: NodeResources | undefined,
  signal: Signal,
): { available: number; capacity?: number } | undefined {
  const r: NodeResources = isObj(resources) ? resources : {};
  const num = (v: unknown) => {
    const n = finite(v, Number.NaN);
    return Number.isNaN(n) ? undefined : Math.max(0, n);
  };
  const pair = (available: unknown, capacity: unknown) => {
    const a = num(available);
    if (a === undefined) return undefined;
    const c = num(capacity);
    return c === undefined ? { available: a } : { available: a, capacity: c };
  };
  switch (signal) {
    case 'memory.available':
      return pair(r.memoryAvailableBytes, r.memoryCapacityBytes);
    case 'nodefs.available':
      return pair(r.nodeFsAvailableBytes, r.nodeFsCapacityBytes);
    case 'nodefs.inodesFree':
      return pair(r.nodeFsInodesFree, r.nodeFsInodes);
    case 'imagefs.available':
      return pair(r.imageFsAvailableBytes, r.imageFsCapacityBytes);
    case 'imagefs.inodesFree':
      return pair(r.imageFsInodesFree, r.imageFsInodes);
    case 'pid.available': {
      const max = num(r.pidMax);
      const used = num(r.pidsInUse);
      return max === undefined || used === undefined
        ? undefined
        : { available: Math.max(0, max - used), capacity: max };
    }
  }
}

/** The threshold as an absolute amount, or undefined when it cannot be resolved (percentage without capacity). */
export function thresholdAmount(t: Threshold, capacity: number | undefined): number | undefined {
  if ('quantity' in t) return finite(t.quantity, Number.NaN);
  return capacity === undefined ? undefined : capacity * finite(t.percentage, Number.NaN);
}

/** Human form of an amount: bytes in binary units, counts as numbers. */
export function formatAmount(signal: Signal, n: number): string {
  if (!isBytes(signal)) return String(Math.round(n));
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const text =
    i === 0
      ? String(Math.round(v))
      : v >= 100
        ? String(Math.round(v))
        : String(Math.round(v * 10) / 10);
  return `${text}${units[i] ?? ''}`;
}

export function formatThreshold(signal: Signal, t: Threshold): string {
  return 'quantity' in t
    ? formatAmount(signal, t.quantity)
    : `${Math.round(t.percentage * 1000) / 10}%`;
}

export type SignalVerdict =
  | { kind: 'met' | 'notMet'; signal: Signal; observed: string; threshold: string }
  | { kind: 'unknown' | 'noThreshold'; signal: Signal };

/** The verdict for one signal. */
export function judge(
  resources: NodeResources | undefined,
  thresholds: EvictionThresholds,
  signal: Signal,
): SignalVerdict {
  const t = thresholds[signal];
  if (!isObj(t)) return { kind: 'noThreshold', signal };
  const o = observe(resources, signal);
  if (!o) return { kind: 'unknown', signal };
  const amount = thresholdAmount(t, o.capacity);
  if (amount === undefined || Number.isNaN(amount)) return { kind: 'unknown', signal };
  return {
    kind: o.available < amount ? 'met' : 'notMet',
    signal,
    observed: formatAmount(signal, o.available),
    threshold: formatThreshold(signal, t),
  };
}
