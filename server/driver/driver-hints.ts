/**
 * The driver as the engine's HintProvider (server/engine/hints.ts): what a kubelet knows about
 * its pods that the CRI does not — the spec, the reason cache, deletion, terminal pods, evictions,
 * probe results, unsupported fields, when the kubelet last posted — and the kubelet-like events
 * of its notes, put on the timeline (timeline-events.ts).
 */
import type { HintProvider, PodHints } from '@/server/engine/hints';
import type { ApiLink } from './node/api-link';
import type { DriverNote } from './notes';
import type { PodWorker } from './pod-worker/pod-worker';
import { noteToTimelineEvent } from './timeline-events';

export interface DriverHintSources {
  node: string;
  workers: ReadonlyMap<string, PodWorker>;
  /** Unsupported spec fields, by pod uid. */
  unsupported: ReadonlyMap<string, readonly string[]>;
  link: ApiLink;
  /** Where the driver's hint changes are announced (uids of the pods whose hints changed). */
  hintListeners: Set<(uids: string[]) => void>;
  onNote: (listener: (note: DriverNote) => void) => () => void;
}

export function driverHints(d: DriverHintSources): HintProvider {
  return {
    name: 'driver',
    specFor: (uid) => {
      const w = d.workers.get(uid);
      return w ? structuredClone(w.spec) : undefined;
    },
    podsOn: (node) =>
      node === d.node
        ? [...d.workers.values()]
            .filter((w) => w.phase === 'syncing' && w.deletionTimestamp === undefined)
            .map((w) => w.uid)
        : [],
    kubeletPostedAt: (node) => (node === d.node ? d.link.postedAt() : undefined),
    hintsFor: (uid): PodHints | undefined => {
      const w = d.workers.get(uid);
      if (!w) return undefined;
      const syncErrors = w.syncErrors();
      const unsupported = d.unsupported.get(uid) ?? [];
      return {
        ...(Object.keys(syncErrors).length > 0 ? { syncErrors } : {}),
        ...(w.deletionTimestamp !== undefined ? { deletionTimestamp: w.deletionTimestamp } : {}),
        podIsTerminal: w.podIsTerminal,
        ...(w.evicted ? { evicted: { ...w.evicted } } : {}),
        probes: w.prober.probeResults(w.runtimeStatus),
        ...(unsupported.length > 0 ? { unsupported: [...unsupported] } : {}),
      };
    },
    onChange: (listener) => {
      d.hintListeners.add(listener);
      return () => d.hintListeners.delete(listener);
    },
    onKubeletEvents: (listener) =>
      d.onNote((note) => {
        const w = d.workers.get(note.uid);
        if (!w) return;
        const event = noteToTimelineEvent(note, w.spec, d.node);
        if (event) listener([event]);
      }),
  };
}
