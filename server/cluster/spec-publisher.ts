/**
 * The API-view leader's second output (api-view.ts runs one per term): every pod's spec and the
 * kubelet's posted status, per node, in the specs bucket (specs.ts) — so each agent derives its
 * pods with the API server's spec, as the embedded console's engine does with KubeView.
 *
 * Keys are written from what the API view holds when they are flushed, not from the change that
 * marked them: a pod changed twice is written once, a deleted one has its key deleted, a pod
 * moved to another node leaves its old node's key. A term starts by reconciling with the bucket
 * (another leader's work): what it would write again unchanged is left as it is, keys of pods
 * the API server no longer has are deleted, so agents keep their specs through a change of
 * leader and see only what changed. Writes that fail (NATS away) stay marked and are retried.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { KV } from '@nats-io/kv';
import { runtimeUid } from '@/lib/drift/api';
import type { KubeChange } from '@/server/kube/view';
import type { BusConnection } from './bus/connection';
import { ENVELOPE_VERSION } from './envelope';
import {
  MAX_SPEC_BYTES,
  compactPod,
  encodeSpecRecord,
  openSpecsBucket,
  type NodeSpecRecord,
  type PodSpecRecord,
} from './specs';

/** What the publisher reads of the API server's view (KubeView has it all). */
export interface SpecSource {
  /** The pod whose sandboxes carry this uid. */
  specFor(uid: string): V1Pod | undefined;
  hostIPsFor(node: string): string[] | undefined;
  /** The Node's status.nodeInfo.kubeletVersion, when it reports one. */
  kubeletVersionFor?(node: string): string | undefined;
  apiObjects(): { readonly pods: readonly V1Pod[]; readonly nodes: readonly V1Node[] };
  /** Runtime uids whose pod changed (added, modified, deleted). */
  onChange(listener: (uids: string[]) => void): () => void;
  onResourceChange(listener: (changes: KubeChange[]) => void): () => void;
}

export interface SpecStats {
  specsWritten: number;
  specsDeleted: number;
  specsDropped: number;
  specFailures: number;
}

export interface SpecPublisherOptions {
  bus: BusConnection;
  source: SpecSource;
  /** The term's API epoch, written into every record. */
  epoch: string;
  stats: SpecStats;
  log?: (line: string, level?: 'info' | 'warn' | 'error') => void;
  now?: () => number;
}

const RETRY_MS = [100, 250, 500, 1_000, 2_000];
/** Delete markers older than this are purged at each reconcile (the bucket keeps no history). */
const PURGE_DELETES_MS = 30 * 60_000;

/** What a record says, without who wrote it when: equal bodies need no new write. */
const bodyOf = (r: { node: string; uid?: string; pod?: unknown; hostIPs?: unknown }) =>
  JSON.stringify(
    r.pod !== undefined
      ? { node: r.node, uid: r.uid, pod: r.pod }
      : { node: r.node, ips: r.hostIPs },
  );

export class SpecPublisher {
  private kv: KV | undefined;
  /** What the bucket holds as far as this term knows: key → body. */
  private readonly bodies = new Map<string, string>();
  /** Runtime uid → its key in the bucket. */
  private readonly keyOfUid = new Map<string, string>();
  private readonly dirtyPods = new Set<string>();
  private readonly dirtyNodes = new Set<string>();
  private readonly offs: (() => void)[] = [];
  private flushing: Promise<void> | undefined;
  private running = true;
  private ready = false;
  private readonly started: Promise<void>;

  constructor(private readonly options: SpecPublisherOptions) {
    const { source } = options;
    this.offs.push(
      source.onChange((uids) => this.mark(uids, [])),
      source.onResourceChange((changes) =>
        this.mark(
          [],
          changes.flatMap((c) => (c.resource === 'node' && c.name ? [c.name] : [])),
        ),
      ),
    );
    this.started = this.reconcile();
  }

  /** Resolves once the first reconcile with the bucket is written (or the term ended). */
  async synced(): Promise<void> {
    await this.started;
    while (this.running && (this.flushing || this.dirtyPods.size + this.dirtyNodes.size > 0))
      await (this.flushing ?? new Promise((r) => setTimeout(r, 20)));
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const off of this.offs) off();
    await this.started.catch(() => {});
    await this.flushing;
  }

  private mark(uids: readonly string[], nodes: readonly string[]): void {
    for (const u of uids) this.dirtyPods.add(u);
    for (const n of nodes) this.dirtyNodes.add(n);
    if (this.ready) this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
  }

  /** Reads what the bucket holds (another term's writes) and marks everything that may differ. */
  private async reconcile(): Promise<void> {
    const names = this.options.bus.names;
    for (let attempt = 0; this.running; attempt++) {
      try {
        this.kv ??= await openSpecsBucket(this.options.bus);
        const keys: string[] = [];
        for await (const k of await this.kv.keys()) keys.push(k);
        for (const key of keys) {
          const k = names.parseSpecKey(key);
          const entry = k ? await this.kv.get(key) : null;
          if (!k || !entry || entry.operation !== 'PUT') {
            // Not a key of this form (nothing an agent reads) or already gone.
            if (!k && entry?.operation === 'PUT') await this.kv.delete(key);
            continue;
          }
          try {
            this.bodies.set(
              key,
              bodyOf(JSON.parse(entry.string()) as Parameters<typeof bodyOf>[0]),
            );
          } catch {
            this.bodies.set(key, ''); // unreadable: rewritten below
          }
          if (k.kind === 'pod') {
            this.keyOfUid.set(k.uid, key);
            this.dirtyPods.add(k.uid);
          } else this.dirtyNodes.add(k.node);
        }
        const api = this.options.source.apiObjects();
        for (const pod of api.pods) {
          const uid = runtimeUid(pod);
          if (uid) this.dirtyPods.add(uid);
        }
        for (const node of api.nodes)
          if (node.metadata?.name) this.dirtyNodes.add(node.metadata.name);
        await (this.kv as unknown as { purgeDeletes(ms: number): Promise<unknown> })
          .purgeDeletes(PURGE_DELETES_MS)
          .catch(() => {});
        break;
      } catch (err) {
        this.failed('reading the specs bucket', err, attempt);
        await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] as number);
      }
    }
    this.ready = true;
    this.mark([], []);
  }

  private async flush(): Promise<void> {
    for (let attempt = 0; this.running;) {
      const uid = this.dirtyPods.values().next();
      const node = uid.done ? this.dirtyNodes.values().next() : undefined;
      if (uid.done && (!node || node.done)) return;
      try {
        if (!uid.done) {
          await this.writePod(uid.value);
          this.dirtyPods.delete(uid.value);
        } else if (node && !node.done) {
          await this.writeNode(node.value);
          this.dirtyNodes.delete(node.value);
        }
        attempt = 0;
      } catch (err) {
        this.failed('writing a spec', err, attempt);
        await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] as number);
        attempt++;
      }
    }
  }

  private async writePod(uid: string): Promise<void> {
    const kv = this.kv as KV;
    const names = this.options.bus.names;
    const pod = this.options.source.specFor(uid);
    const node = pod?.spec?.nodeName;
    const key = pod && node ? names.podSpecKey(node, uid) : undefined;
    const old = this.keyOfUid.get(uid);
    if (old !== undefined && old !== key) {
      await kv.delete(old);
      this.bodies.delete(old);
      this.keyOfUid.delete(uid);
      this.options.stats.specsDeleted++;
    }
    if (!pod || !node || !key) return;
    const record: PodSpecRecord = {
      ...this.head(node),
      uid,
      pod: JSON.parse(JSON.stringify(compactPod(pod))) as V1Pod,
    };
    await this.put(key, record, bodyOf(record));
    this.keyOfUid.set(uid, key);
  }

  private async writeNode(node: string): Promise<void> {
    const key = this.options.bus.names.nodeSpecKey(node);
    const hostIPs = this.options.source.hostIPsFor(node);
    const kubeletVersion = this.options.source.kubeletVersionFor?.(node)?.slice(0, 64);
    if (!hostIPs && !kubeletVersion) {
      if (this.bodies.has(key)) {
        await (this.kv as KV).delete(key);
        this.bodies.delete(key);
        this.options.stats.specsDeleted++;
      }
      return;
    }
    const record: NodeSpecRecord = {
      ...this.head(node),
      hostIPs: (hostIPs ?? []).slice(0, 16),
      ...(kubeletVersion ? { kubeletVersion } : {}),
    };
    await this.put(key, record, bodyOf(record));
  }

  private async put(key: string, record: PodSpecRecord | NodeSpecRecord, body: string) {
    if (this.bodies.get(key) === body) return;
    const bytes = encodeSpecRecord(record);
    if (bytes.byteLength > MAX_SPEC_BYTES) {
      this.options.stats.specsDropped++;
      this.options.log?.(
        `api view: the spec of ${key} is ${bytes.byteLength} bytes, more than a record may hold; not published`,
        'warn',
      );
      return;
    }
    await (this.kv as KV).put(key, bytes);
    this.bodies.set(key, body);
    this.options.stats.specsWritten++;
  }

  private head(node: string) {
    const { bus, epoch, now = Date.now } = this.options;
    return {
      v: ENVELOPE_VERSION as typeof ENVELOPE_VERSION,
      cluster: bus.names.cluster,
      node,
      epoch,
      t: now(),
    };
  }

  private failed(what: string, err: unknown, attempt: number): void {
    this.options.stats.specFailures++;
    if (attempt === 0)
      this.options.log?.(
        `api view: ${what} failed, retrying: ${err instanceof Error ? err.message : String(err)}`,
        'warn',
      );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
