/**
 * The fake API server's storage: one global resourceVersion counter (like etcd's revision),
 * objects per collection, and a per-collection history of watch events so a watch can resume
 * from any resourceVersion newer than the compaction point — and gets 410 Gone for older ones.
 */
export const RESOURCES = ['nodes', 'pods', 'events', 'leases'] as const;
export type Resource = (typeof RESOURCES)[number];

export type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

export interface HistoryEntry {
  rv: number;
  type: WatchType;
  object: StoredObject;
}

export const KINDS: Record<Resource, { kind: string; apiVersion: string; listKind: string }> = {
  nodes: { kind: 'Node', apiVersion: 'v1', listKind: 'NodeList' },
  pods: { kind: 'Pod', apiVersion: 'v1', listKind: 'PodList' },
  events: { kind: 'Event', apiVersion: 'v1', listKind: 'EventList' },
  leases: { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', listKind: 'LeaseList' },
};

const clone = <T>(v: T): T => structuredClone(v);
const keyOf = (o: StoredObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export class FakeStore {
  rv: number;
  /** Watches from a resourceVersion at or below this get 410 Gone. */
  compactedRv = 0;
  private readonly objects = new Map<Resource, Map<string, StoredObject>>();
  private readonly history = new Map<Resource, HistoryEntry[]>();
  private uidCounter = 0;
  private readonly listeners = new Set<(resource: Resource, entry: HistoryEntry) => void>();

  constructor(startRv = 1000) {
    this.rv = startRv;
    for (const r of RESOURCES) {
      this.objects.set(r, new Map());
      this.history.set(r, []);
    }
  }

  onChange(listener: (resource: Resource, entry: HistoryEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Creates or replaces an object (by namespace/name); returns the stored copy with its new resourceVersion. */
  upsert(resource: Resource, input: StoredObject): StoredObject {
    const obj = clone(input);
    const map = this.map(resource);
    const existing = map.get(keyOf(obj));
    obj.apiVersion ??= KINDS[resource].apiVersion;
    obj.kind ??= KINDS[resource].kind;
    obj.metadata.uid ??= existing?.metadata.uid ?? `fake-${resource}-${++this.uidCounter}`;
    obj.metadata.creationTimestamp ??=
      existing?.metadata.creationTimestamp ?? new Date().toISOString();
    obj.metadata.resourceVersion = String(++this.rv);
    map.set(keyOf(obj), obj);
    this.record(resource, { rv: this.rv, type: existing ? 'MODIFIED' : 'ADDED', object: obj });
    return clone(obj);
  }

  /** Applies `change` to a copy of the stored object and stores it (a MODIFIED event). */
  update(
    resource: Resource,
    namespace: string | undefined,
    name: string,
    change: (o: StoredObject) => void,
  ): StoredObject {
    const current = this.get(resource, namespace, name);
    if (!current)
      throw new Error(`fake apiserver: no ${resource} ${namespace ?? ''}/${name} to update`);
    change(current);
    return this.upsert(resource, current);
  }

  remove(resource: Resource, namespace: string | undefined, name: string): void {
    const map = this.map(resource);
    const key = `${namespace ?? ''}/${name}`;
    const existing = map.get(key);
    if (!existing) throw new Error(`fake apiserver: no ${resource} ${key} to delete`);
    map.delete(key);
    const gone = clone(existing);
    gone.metadata.resourceVersion = String(++this.rv);
    this.record(resource, { rv: this.rv, type: 'DELETED', object: gone });
  }

  get(resource: Resource, namespace: string | undefined, name: string): StoredObject | undefined {
    const o = this.map(resource).get(`${namespace ?? ''}/${name}`);
    return o ? clone(o) : undefined;
  }

  list(resource: Resource): StoredObject[] {
    return [...this.map(resource).values()]
      .sort((a, b) => keyOf(a).localeCompare(keyOf(b)))
      .map(clone);
  }

  /** Events of `resource` after `rv`, or undefined when `rv` is older than the compaction point. */
  since(resource: Resource, rv: number): HistoryEntry[] | undefined {
    if (rv < this.compactedRv) return undefined;
    return (this.history.get(resource) ?? []).filter((e) => e.rv > rv).map(clone);
  }

  /** Moves the global revision on without touching these collections (writes elsewhere in the cluster). */
  advance(n: number): number {
    this.rv += n;
    return this.rv;
  }

  /** Forgets all history up to now, as etcd compaction does: older resourceVersions become 410 Gone. */
  compact(): void {
    this.compactedRv = this.rv;
    for (const r of RESOURCES) this.history.set(r, []);
  }

  private map(resource: Resource): Map<string, StoredObject> {
    const m = this.objects.get(resource);
    if (!m) throw new Error(`fake apiserver: unknown resource ${resource}`);
    return m;
  }

  private record(resource: Resource, entry: HistoryEntry): void {
    this.history.get(resource)?.push(entry);
    for (const l of this.listeners) l(resource, clone(entry));
  }
}
