/**
 * How the engine listens to its hint providers (hints.ts; the driver, server/kube): a provider's
 * kubelet-like events are numbered and recorded at once and handed to every node; a change of a
 * provider's hints re-derives those pods on the in-thread nodes, with the seq of the provider
 * event recorded in the same turn as its cause (the driver tells "readiness probe failed 3
 * times", then its hints change).
 */
import type { TimelineEvent, UnsequencedEvent } from '@/lib/timeline/events';
import type { HintProvider } from './hints';

export interface ProviderTargets {
  /** Numbers and records events and hands the batch to every node; returns the batch. */
  record(events: UnsequencedEvent[]): TimelineEvent[];
  /** Re-derives these pods on every in-thread node, with the seq that caused each change. */
  rederive(uids: Set<string>, caused: Map<string, number> | undefined): void;
}

/** Subscribes to every provider; returns the unsubscribers. */
export function linkProviders(
  providers: readonly HintProvider[],
  targets: ProviderTargets,
): (() => void)[] {
  const unsubscribers: (() => void)[] = [];
  // Pod uid → seq of a provider event recorded in this turn: the cause of the hint change
  // that follows it.
  const causes = new Map<string, number>();
  for (const p of providers) {
    const offEvents = p.onKubeletEvents?.((events) => {
      const batch = targets.record(events);
      if (batch.length === 0) return;
      if (causes.size === 0) queueMicrotask(() => causes.clear());
      for (const e of batch) if (e.kind === 'k8s' && e.podUid) causes.set(e.podUid, e.seq);
    });
    if (offEvents) unsubscribers.push(offEvents);
    const off = p.onChange?.((uids) => {
      const caused = new Map(
        uids.flatMap((u) => {
          const seq = causes.get(u);
          return seq === undefined ? [] : [[u, seq] as const];
        }),
      );
      targets.rederive(new Set(uids), caused.size > 0 ? caused : undefined);
    });
    if (off) unsubscribers.push(off);
  }
  return unsubscribers;
}
