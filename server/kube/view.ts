/**
 * KubeView: the API server's view of the cluster, kept current by list+watch (reflector.ts) on
 * Nodes, Pods, Events and node Leases, indexed the ways Podscope joins it to the runtime's view:
 * a pod by the uid on its sandboxes (mirror pods by their static pod's uid), pods by node, a
 * node's Lease by node name.
 *
 * It is the engine's 'apiserver' HintProvider (server/engine/hints.ts): specFor() gives the real
 * pod spec instead of an inferred one, hintsFor() what the kubelet knows that the CRI does not.
 * It turns API-server Events into timeline events, and compares both views (lib/drift).
 */
import type { CoreV1Event, KubeConfig, V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import { runtimeUid, type ApiObjects } from '@/lib/drift/api';
import type { DriftOptions } from '@/lib/drift/options';
import { DriftTracker } from '@/lib/drift/tracker';
import type { ClusterDrift } from '@/lib/drift/types';
import { nodeHostIPs } from '@/lib/kubelet/ip';
import type { RuntimeSandbox } from '@/lib/kubelet/runtime';
import type { NodeView } from '@/lib/timeline/state';
import type { HintProvider, PodHints } from '@/server/engine/hints';
import type { BackoffOptions, Sleep } from './backoff';
import { loadKubeConfig, serverOf, type KubeConfigSource } from './config';
import { toTimelineEvent, type NewK8sEvent } from './events';
import { podHints } from './hints';
import {
  Reflector,
  type Change,
  type ChangeType,
  type KubeObject,
  type ReflectorStatus,
  type WatchLike,
} from './reflector';
import { kubeResources, type ResourceOptions } from './resources';

export interface KubeViewOptions extends KubeConfigSource, ResourceOptions {
  pageSize?: number;
  backoff?: Partial<BackoffOptions>;
  watchTimeoutSeconds?: () => number;
  /** Watch Events too (default true). */
  events?: boolean;
  /** Emit the Events already present at the first list (default false: only new ones). */
  emitInitialEvents?: boolean;
  /** How long a deleted pod is remembered, to explain its lingering sandbox (default 10 min). */
  deletedPodMemoryMs?: number;
  drift?: Partial<DriftOptions>;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
  /** Stand-in for client-node's Watch (default: a Watch on the loaded KubeConfig). */
  watch?: WatchLike;
}

export interface KubeChange {
  resource: 'pod' | 'node' | 'lease';
  type: ChangeType;
  name: string;
  namespace?: string;
  /** API uid (pods: see runtimeUid for the sandbox's). */
  uid?: string;
  /** The node concerned: the node itself, a pod's spec.nodeName, a Lease's holder. */
  node?: string;
  relist: boolean;
}

export interface KubeViewStatus {
  server: string;
  /** Every collection has synced and has a watch open right now. */
  connected: boolean;
  synced: boolean;
  lastError?: string;
  lastErrorAt?: number;
  /** Lists after the first, summed over the collections. */
  relists: number;
  resourceVersions: Record<string, string>;
  resources: Record<string, ReflectorStatus>;
}

export interface SandboxJoin {
  joined: { sandbox: RuntimeSandbox; pod: V1Pod }[];
  /** Sandboxes whose io.kubernetes.pod.uid the API server does not have. */
  orphans: RuntimeSandbox[];
}

const DEFAULT_DELETED_MEMORY_MS = 10 * 60_000;

export class KubeView implements HintProvider {
  readonly name = 'apiserver' as const;
  readonly config: KubeConfig;
  private readonly pods: Reflector<V1Pod>;
  private readonly nodes: Reflector<V1Node>;
  private readonly leases: Reflector<V1Lease>;
  private readonly events: Reflector<CoreV1Event> | undefined;
  private readonly now: () => number;
  private readonly podByRuntime = new Map<string, V1Pod>();
  private readonly podsOnNodeIdx = new Map<string, Map<string, V1Pod>>();
  private readonly nodeByName = new Map<string, V1Node>();
  private readonly leaseByNode = new Map<string, V1Lease>();
  private readonly deleted = new Map<string, number>();
  private readonly tracker: DriftTracker;
  private readonly hintListeners = new Set<(uids: string[]) => void>();
  private readonly changeListeners = new Set<(changes: KubeChange[]) => void>();
  private readonly eventListeners = new Set<(event: NewK8sEvent, raw: CoreV1Event) => void>();
  private eventsPrimed: boolean;
  private started = false;

  constructor(private readonly options: KubeViewOptions = {}) {
    this.config = loadKubeConfig(options);
    this.now = options.now ?? Date.now;
    this.tracker = new DriftTracker(options.drift);
    const watch = options.watch ?? new Watch(this.config);
    const specs = kubeResources(this.config, options);
    const reflectorOptions = {
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.watchTimeoutSeconds ? { watchTimeoutSeconds: options.watchTimeoutSeconds } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
      now: this.now,
    };
    this.pods = new Reflector(specs.pods, watch, reflectorOptions);
    this.nodes = new Reflector(specs.nodes, watch, reflectorOptions);
    this.leases = new Reflector(specs.leases, watch, reflectorOptions);
    this.events =
      options.events === false ? undefined : new Reflector(specs.events, watch, reflectorOptions);
    this.eventsPrimed = options.emitInitialEvents === true;
    this.pods.onChanges((cs) => this.onPods(cs));
    this.nodes.onChanges((cs) => this.onNodes(cs));
    this.leases.onChanges((cs) => this.onLeases(cs));
    this.events?.onChanges((cs) => this.onEvents(cs));
  }

  /** Starts list+watch on every collection; idempotent. Use synced() to wait for the first lists. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const r of this.reflectors()) r.start();
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all(this.reflectors().map((r) => r.stop()));
  }

  /** Resolves true once every collection has been listed, false if `timeoutMs` passes first. */
  async synced(timeoutMs?: number): Promise<boolean> {
    const all = Promise.all(this.reflectors().map((r) => r.waitForSync())).then(() => true);
    if (timeoutMs === undefined) return all;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return (await Promise.race([all, timeout])) && this.status().synced;
    } finally {
      clearTimeout(timer);
    }
  }

  // ── lookups ──────────────────────────────────────────────────────────────

  /** The pod whose sandboxes carry this io.kubernetes.pod.uid (or, failing that, this API uid). */
  getPodByUid(uid: string): V1Pod | undefined {
    return this.podByRuntime.get(uid) ?? this.pods.get(uid);
  }

  podsOnNode(nodeName: string): V1Pod[] {
    return [...(this.podsOnNodeIdx.get(nodeName)?.values() ?? [])];
  }

  getNode(name: string): V1Node | undefined {
    return this.nodeByName.get(name);
  }

  /** The Node's host IPs (GetNodeHostIPs over its addresses); undefined when unknown. */
  hostIPsFor(nodeName: string): string[] | undefined {
    const addresses = this.getNode(nodeName)?.status?.addresses ?? [];
    const ips = nodeHostIPs(addresses.map((a) => ({ type: a.type, address: a.address })));
    return ips.length > 0 ? ips : undefined;
  }

  /** The kubelet version the node's kubelet posted (status.nodeInfo.kubeletVersion), when known. */
  kubeletVersionFor(nodeName: string): string | undefined {
    return this.getNode(nodeName)?.status?.nodeInfo?.kubeletVersion || undefined;
  }

  getLease(nodeName: string): V1Lease | undefined {
    return this.leaseByNode.get(nodeName);
  }

  /** Everything the drift comparison needs, as of now. */
  apiObjects(): ApiObjects {
    this.pruneDeleted();
    return {
      pods: this.pods.list(),
      nodes: this.nodes.list(),
      leases: this.leases.list(),
      deletedPods: Object.fromEntries(this.deleted),
    };
  }

  // ── the join ─────────────────────────────────────────────────────────────

  join(sandboxes: readonly RuntimeSandbox[]): SandboxJoin {
    const out: SandboxJoin = { joined: [], orphans: [] };
    for (const sandbox of sandboxes) {
      const pod = this.podByRuntime.get(sandbox.uid);
      if (pod) out.joined.push({ sandbox, pod });
      else out.orphans.push(sandbox);
    }
    return out;
  }

  specFor(uid: string): V1Pod | undefined {
    return this.podByRuntime.get(uid);
  }

  hintsFor(uid: string): PodHints | undefined {
    const pod = this.podByRuntime.get(uid);
    return pod ? podHints(pod) : undefined;
  }

  /** HintProvider: the runtime uids whose spec or hints changed. */
  onChange(listener: (uids: string[]) => void): () => void {
    this.hintListeners.add(listener);
    return () => this.hintListeners.delete(listener);
  }

  /** Every pod, node and Lease change, in batches (one per watch event, one per relist). */
  onResourceChange(listener: (changes: KubeChange[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** API-server Events as timeline events (without seq; the engine appends them). */
  onEvent(listener: (event: NewK8sEvent, raw: CoreV1Event) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  // ── drift ────────────────────────────────────────────────────────────────

  /** Compares the API server with the derived runtime view; remembers ages between calls. */
  drift(nodes: Readonly<Record<string, NodeView>>, now: number = this.now()): ClusterDrift {
    // Old Leases only say the kubelet is silent if our own watch of them is current.
    const leases = this.leases.status();
    return this.tracker.detect(this.apiObjects(), nodes, now, {
      apiConnected: leases.synced && !leases.failing,
    });
  }

  status(): KubeViewStatus {
    const resources: Record<string, ReflectorStatus> = {};
    for (const r of this.reflectors()) {
      const s = r.status();
      resources[s.resource] = s;
    }
    const all = Object.values(resources);
    const latestError = all
      .filter((s) => s.lastError !== undefined)
      .sort((a, b) => (b.lastErrorAt ?? 0) - (a.lastErrorAt ?? 0))[0];
    return {
      server: serverOf(this.config),
      connected: all.every((s) => s.synced && s.connected),
      synced: all.every((s) => s.synced),
      ...(latestError?.lastError !== undefined ? { lastError: latestError.lastError } : {}),
      ...(latestError?.lastErrorAt !== undefined ? { lastErrorAt: latestError.lastErrorAt } : {}),
      relists: all.reduce((n, s) => n + s.relists, 0),
      resourceVersions: Object.fromEntries(all.map((s) => [s.resource, s.resourceVersion])),
      resources,
    };
  }

  // ── indexes ──────────────────────────────────────────────────────────────

  private reflectors(): Pick<Reflector<KubeObject>, 'start' | 'stop' | 'waitForSync' | 'status'>[] {
    const list: Pick<Reflector<KubeObject>, 'start' | 'stop' | 'waitForSync' | 'status'>[] = [
      this.nodes,
      this.pods,
      this.leases,
    ];
    if (this.events) list.push(this.events);
    return list;
  }

  private onPods(changes: Change<V1Pod>[]): void {
    const uids = new Set<string>();
    for (const c of changes) {
      // A modified pod may have moved its mirror hash or node: unindex the old version first.
      if (c.old) this.unindexPod(c.old);
      const uid = runtimeUid(c.object);
      if (c.type === 'deleted') {
        this.unindexPod(c.object);
        if (uid) this.deleted.set(uid, this.now());
      } else {
        this.indexPod(c.object);
        if (uid) this.deleted.delete(uid);
      }
      if (uid) uids.add(uid);
    }
    this.fanOut(this.hintListeners, [...uids]);
    this.fanOut(
      this.changeListeners,
      changes.map((c) => this.describeChange('pod', c, c.object.spec?.nodeName)),
    );
  }

  private indexPod(pod: V1Pod): void {
    const uid = runtimeUid(pod);
    if (uid) this.podByRuntime.set(uid, pod);
    const node = pod.spec?.nodeName;
    const key = pod.metadata?.uid;
    if (node && key) {
      let m = this.podsOnNodeIdx.get(node);
      if (!m) this.podsOnNodeIdx.set(node, (m = new Map<string, V1Pod>()));
      m.set(key, pod);
    }
  }

  private unindexPod(pod: V1Pod): void {
    const uid = runtimeUid(pod);
    if (uid && this.podByRuntime.get(uid)?.metadata?.uid === pod.metadata?.uid)
      this.podByRuntime.delete(uid);
    const node = pod.spec?.nodeName;
    const key = pod.metadata?.uid;
    if (node && key) {
      const m = this.podsOnNodeIdx.get(node);
      m?.delete(key);
      if (m?.size === 0) this.podsOnNodeIdx.delete(node);
    }
  }

  private onNodes(changes: Change<V1Node>[]): void {
    for (const c of changes) {
      const name = c.object.metadata?.name;
      if (!name) continue;
      if (c.type === 'deleted') this.nodeByName.delete(name);
      else this.nodeByName.set(name, c.object);
    }
    this.fanOut(
      this.changeListeners,
      changes.map((c) => this.describeChange('node', c, c.object.metadata?.name)),
    );
  }

  private onLeases(changes: Change<V1Lease>[]): void {
    for (const c of changes) {
      const node = c.object.spec?.holderIdentity ?? c.object.metadata?.name;
      if (!node) continue;
      if (c.type === 'deleted') this.leaseByNode.delete(node);
      else this.leaseByNode.set(node, c.object);
    }
    this.fanOut(
      this.changeListeners,
      changes.map((c) =>
        this.describeChange('lease', c, c.object.spec?.holderIdentity ?? c.object.metadata?.name),
      ),
    );
  }

  private onEvents(changes: Change<CoreV1Event>[]): void {
    // The first list is history: only emitted when asked for. Relists after a 410 emit what
    // changed while the watch was away, so nothing is missed and nothing repeats.
    const primed = this.eventsPrimed;
    this.eventsPrimed = true;
    if (!primed) return;
    if (this.eventListeners.size === 0) return;
    const now = this.now();
    for (const c of changes) {
      if (c.type === 'deleted') continue;
      const event = toTimelineEvent(c.object, { now, podByApiUid: (uid) => this.pods.get(uid) });
      if (!event) continue;
      for (const l of this.eventListeners) {
        try {
          l(event, c.object);
        } catch {
          // One listener's failure must not stop the others or the watch.
        }
      }
    }
  }

  private describeChange(
    resource: KubeChange['resource'],
    c: Change<KubeObject>,
    node: string | undefined,
  ): KubeChange {
    const meta = c.object.metadata;
    return {
      resource,
      type: c.type,
      name: meta?.name ?? '',
      ...(meta?.namespace ? { namespace: meta.namespace } : {}),
      ...(meta?.uid ? { uid: meta.uid } : {}),
      ...(node ? { node } : {}),
      relist: c.relist,
    };
  }

  private fanOut<A>(listeners: Set<(arg: A) => void>, arg: A): void {
    if (Array.isArray(arg) && arg.length === 0) return;
    for (const l of listeners) {
      try {
        l(arg);
      } catch {
        // One listener's failure must not stop the others or the watch.
      }
    }
  }

  private pruneDeleted(): void {
    const horizon = this.now() - (this.options.deletedPodMemoryMs ?? DEFAULT_DELETED_MEMORY_MS);
    for (const [uid, at] of this.deleted) if (at < horizon) this.deleted.delete(uid);
  }
}
