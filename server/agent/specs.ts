/**
 * The agent's 'apiserver' hint provider: its own node's entries of the specs bucket (written by
 * the console replica that holds the API-view Lease, server/cluster/spec-publisher.ts), handed to
 * its node engine exactly as the embedded console hands KubeView to its engine — the pod's spec
 * (specFor), what the kubelet posted (hintsFor, the same podHints as KubeView's) and the Node's
 * host IPs. The agent holds no API-server credentials: it only reads the bucket, and only under
 * its node's keys (`<node>.>`).
 *
 * Each entry is checked (server/cluster/specs.ts) and a malformed, foreign-cluster or misrouted
 * one is refused, counted in `podscope_cluster_refused_total{source="kv"}` and logged, never
 * used. A write of an older term than the entry held (a deposed leader's late write) is ignored.
 * While the bucket or NATS is away the last good specs stay in use; a pod whose key is deleted
 * (gone from the API server) goes back to the spec the CRI gives.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { BusConnection } from '@/server/cluster/bus/connection';
import { compareEpochs } from '@/server/cluster/envelope';
import type { Refusals } from '@/server/cluster/refusals';
import {
  openSpecsBucket,
  parseSpecRecord,
  type NodeSpecRecord,
  type PodSpecRecord,
} from '@/server/cluster/specs';
import type { HintProvider, PodHints } from '@/server/engine/hints';
import { podHints } from '@/server/kube/hints';

const RETRY_MS = 1_000;

interface Held {
  key: string;
  epoch: string;
  /** The entry's bytes: a rewrite of the same bytes (a re-watch) changes nothing. */
  raw: string;
  pod: V1Pod;
  hints: PodHints;
}

export interface AgentSpecStats {
  pods: number;
  applied: number;
  deleted: number;
  stale: number;
}

export class AgentSpecs implements HintProvider {
  readonly name = 'apiserver' as const;
  readonly stats: AgentSpecStats = { pods: 0, applied: 0, deleted: 0, stale: 0 };
  private readonly byUid = new Map<string, Held>();
  private readonly uidOfKey = new Map<string, string>();
  private hostIPs:
    { epoch: string; ips: string[]; kubeletVersion?: string; raw: string } | undefined;
  private readonly listeners = new Set<(uids: string[]) => void>();
  /** True once the first watch has delivered what the bucket held. */
  private primed = false;

  constructor(
    private readonly node: string,
    private readonly cluster: string,
    private readonly refusals: Refusals,
    private readonly log: (line: string) => void = () => {},
  ) {}

  get ready(): boolean {
    return this.primed;
  }

  specFor(uid: string): V1Pod | undefined {
    return this.byUid.get(uid)?.pod;
  }

  hintsFor(uid: string): PodHints | undefined {
    return this.byUid.get(uid)?.hints;
  }

  hostIPsFor(node: string): string[] | undefined {
    return node === this.node ? this.hostIPs?.ips : undefined;
  }

  kubeletVersionFor(node: string): string | undefined {
    return node === this.node ? this.hostIPs?.kubeletVersion : undefined;
  }

  onChange(listener: (uids: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows this node's keys until `signal`, re-watching after any failure (NATS restarts). */
  async follow(bus: BusConnection, signal: AbortSignal): Promise<void> {
    let lastError = '';
    while (!signal.aborted) {
      try {
        const kv = await openSpecsBucket(bus);
        // What the bucket holds now: a key deleted while this watch was away — its marker purged
        // since (spec-publisher.ts) — is not in the watch's replay, so it is dropped here.
        const live = new Set<string>();
        for await (const k of await kv.keys(bus.names.specsFilter(this.node))) live.add(k);
        this.prune(live, bus);
        const watch = await kv.watch({ key: bus.names.specsFilter(this.node) });
        const stop = () => watch.stop();
        signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const e of watch) {
            this.apply(e.key, e.operation, e.value, bus);
            if (e.delta === 0) this.primed = true;
          }
        } finally {
          signal.removeEventListener('abort', stop);
          watch.stop();
        }
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        if (msg !== lastError) this.log(`agent: watching the specs bucket: ${msg}`);
        lastError = msg;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, RETRY_MS);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
  }

  /** Forgets every entry whose key is not among `live` (the bucket's keys of this node). */
  prune(live: ReadonlySet<string>, bus: Pick<BusConnection, 'names'>): void {
    const gone: string[] = [];
    for (const [key, uid] of this.uidOfKey)
      if (!live.has(key)) {
        this.uidOfKey.delete(key);
        this.byUid.delete(uid);
        this.stats.deleted++;
        gone.push(uid);
      }
    this.stats.pods = this.byUid.size;
    if (this.hostIPs && !live.has(bus.names.nodeSpecKey(this.node))) {
      this.hostIPs = undefined;
      gone.push(...this.byUid.keys());
    }
    this.changed(gone);
  }

  /** One entry of the bucket (a put, or a delete / purge marker). */
  apply(
    key: string,
    operation: string,
    value: Uint8Array,
    bus: Pick<BusConnection, 'names'>,
  ): void {
    const where = `specs ${key}`;
    const k = bus.names.parseSpecKey(key);
    if (!k || k.node !== this.node) {
      this.refusals.refuse('kv', 'subject-mismatch', where, `not a key of node ${this.node}`);
      return;
    }
    if (operation !== 'PUT') {
      if (k.kind === 'node') {
        if (this.hostIPs) {
          this.hostIPs = undefined;
          this.changed([...this.byUid.keys()]);
        }
        return;
      }
      const uid = this.uidOfKey.get(key);
      if (uid === undefined) return;
      this.uidOfKey.delete(key);
      this.byUid.delete(uid);
      this.stats.deleted++;
      this.stats.pods = this.byUid.size;
      this.changed([uid]);
      return;
    }
    const raw = Buffer.from(value).toString('utf8');
    const held = k.kind === 'pod' ? this.byUid.get(k.uid) : this.hostIPs;
    if (held?.raw === raw) return;
    const parsed = parseSpecRecord(value, this.cluster, k);
    if (!parsed.ok) {
      this.refusals.refuse('kv', parsed.reason, where, parsed.detail);
      return;
    }
    if (held && compareEpochs(parsed.value.epoch, held.epoch) < 0) {
      this.stats.stale++;
      return;
    }
    this.stats.applied++;
    if (k.kind === 'node') {
      const record = parsed.value as NodeSpecRecord;
      this.hostIPs = {
        epoch: record.epoch,
        ips: record.hostIPs,
        ...(record.kubeletVersion ? { kubeletVersion: record.kubeletVersion } : {}),
        raw,
      };
      // Host IPs are in every pod's status.
      this.changed([...this.byUid.keys()]);
      return;
    }
    const { pod, epoch } = parsed.value as PodSpecRecord;
    this.byUid.set(k.uid, { key, epoch, raw, pod, hints: podHints(pod) });
    this.uidOfKey.set(key, k.uid);
    this.stats.pods = this.byUid.size;
    this.changed([k.uid]);
  }

  private changed(uids: string[]): void {
    if (uids.length === 0) return;
    for (const l of this.listeners) {
      try {
        l(uids);
      } catch {
        // One listener's failure must not stop the others or the watch.
      }
    }
  }
}
