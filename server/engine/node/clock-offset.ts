/**
 * How far a node's clock is from the server's, so that runtime timestamps (created, started,
 * finished) and the server's "now" can be compared — the kubelet's back-off, "running for", "last
 * exit" — when the node's clock is wrong. The kubelet itself never has this problem: it reads the
 * runtime's times with the same clock. Podscope observes from elsewhere.
 *
 * Each transition found by a relist that kept up with the node happened between the previous
 * relist and its observation, so `observedAt − runtimeTime` is an upper bound of the true offset
 * (server − node), loose by at most the observation delay. The estimate is the smallest such
 * bound that several recent observations agree on (so one absurd timestamp cannot steer it). It
 * is applied only beyond `toleranceMs` — what a relist's delay can explain — so nodes whose clocks
 * agree with the server's keep their times untouched. Corrected times are kept between the epoch
 * and the moment of derivation.
 */
import type { RuntimeContainer, RuntimePodStatus } from '@/lib/kubelet/runtime';

export interface ClockOffsetOptions {
  /** Estimates within ±toleranceMs of zero are treated as zero. */
  toleranceMs: number;
  /** Observations older than this (server time) no longer count. Default 10 min. */
  windowMs?: number;
  /** At most this many observations are kept. Default 32. */
  maxSamples?: number;
  /** Observations that must agree before an estimate counts. Default 3. */
  support?: number;
}

export class ClockOffset {
  private samples: { at: number; bound: number }[] = [];
  /** The offset applied now: add it to a runtime time to get server time (0: none). */
  ms = 0;

  constructor(private readonly options: ClockOffsetOptions) {}

  /**
   * Notes fresh transitions (runtime time, observed at server time `observedAt`). Returns true
   * when the applied offset changed.
   */
  observe(observedAt: number, runtimeTimes: readonly number[]): boolean {
    const windowMs = this.options.windowMs ?? 600_000;
    const max = this.options.maxSamples ?? 32;
    for (const rt of runtimeTimes) {
      if (!Number.isFinite(rt) || rt <= 0) continue;
      this.samples.push({ at: observedAt, bound: observedAt - rt });
    }
    this.samples = this.samples.filter((s) => observedAt - s.at <= windowMs).slice(-max);
    const estimate = this.estimate();
    if (estimate === undefined) return false;
    const next = Math.abs(estimate) > this.options.toleranceMs ? Math.round(estimate) : 0;
    // Keep the applied value unless the estimate moved by more than the tolerance: small jitter
    // in the observation delay must not re-derive every pod of the node.
    if (
      next === this.ms ||
      (next !== 0 && this.ms !== 0 && Math.abs(next - this.ms) <= this.options.toleranceMs)
    ) {
      return false;
    }
    this.ms = next;
    return true;
  }

  /**
   * The smallest bound that at least `support` observations agree with (within the tolerance):
   * one garbage timestamp — a record dated 2200 by a buggy runtime — cannot move the offset.
   */
  private estimate(): number | undefined {
    const support = this.options.support ?? 3;
    const bounds = this.samples.map((s) => s.bound).sort((a, b) => a - b);
    for (let i = 0; i + support - 1 < bounds.length; i++) {
      const low = bounds[i] ?? 0;
      if ((bounds[i + support - 1] ?? Infinity) - low <= this.options.toleranceMs) return low;
    }
    return undefined;
  }
}

/** "1 h 0 min 3 s ahead of" / "… behind" the server, for log lines. */
export function describeOffset(ms: number): string {
  const abs = Math.abs(ms);
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = Math.round((abs % 60_000) / 1000);
  const span = [h ? `${h} h` : '', h || m ? `${m} min` : '', `${s} s`].filter(Boolean).join(' ');
  // offset = server − node: negative means the node's clock is ahead.
  return `${span} ${ms < 0 ? 'ahead of' : 'behind'}`;
}

const shift = (t: number | undefined, ms: number, notAfter: number) =>
  t === undefined || !Number.isFinite(t) || t <= 0 ? t : Math.min(Math.max(1, t + ms), notAfter);

/**
 * The pod's runtime records with their times moved into server time, none later than `notAfter`
 * (the moment of derivation) nor before the epoch; the very same object when ms is 0.
 */
export function shiftPodTimes(
  pod: RuntimePodStatus,
  ms: number,
  notAfter: number,
): RuntimePodStatus {
  if (ms === 0) return pod;
  return {
    ...pod,
    sandboxes: pod.sandboxes.map((s) => ({
      ...s,
      createdAt: shift(s.createdAt, ms, notAfter) ?? s.createdAt,
    })),
    containers: pod.containers.map((c) => shiftContainerTimes(c, ms, notAfter)),
  };
}

export function shiftContainerTimes(
  c: RuntimeContainer,
  ms: number,
  notAfter = Infinity,
): RuntimeContainer {
  if (ms === 0) return c;
  const startedAt = shift(c.startedAt, ms, notAfter);
  const finishedAt = shift(c.finishedAt, ms, notAfter);
  return {
    ...c,
    createdAt: shift(c.createdAt, ms, notAfter) ?? c.createdAt,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
  };
}
