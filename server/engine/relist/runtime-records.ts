/**
 * The records one node's relist loop holds (node-watcher.ts) and what a pass does with a fresh
 * list answer: ContainerStatus / PodSandboxStatus only for what is new, changed or still
 * unresolved (diff.ts's planInspection), the transitions against the records held (diff.ts), the
 * touched and vanished pods, and the grouping of records into pods (on first use only).
 *
 * - A failed inspection keeps the old record and retries its pod next pass (the pod is re-read).
 * - A list answer made of the very records of a settled pass, or naming exactly the ids held with
 *   nothing to inspect, costs no inspection and yields no transition (a quiet node's relists).
 */
import type { RuntimeContainer, RuntimePodStatus, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { containerTransitions, planInspection, sandboxTransitions, type Transition } from './diff';
import type { RuntimeClient } from './runtime-client';

/** What one successful relist hands to the engine. */
export interface RelistOutcome {
  node: string;
  startedAt: number;
  finishedAt: number;
  source: 'relist' | 'events';
  transitions: Transition[];
  /** Runtime view of every pod whose records changed, failed inspection, or is still present. */
  pods: Map<string, RuntimePodStatus>;
  /** Uids with a transition or a failed inspection in this pass (the engine re-derives these). */
  touched: Set<string>;
  /** Uids that vanished from the runtime entirely. */
  removed: Set<string>;
  /** Previous records of containers, for back-off bookkeeping (a new attempt after an exit). */
  previousContainers: ReadonlyMap<string, RuntimeContainer>;
}

/** Where a pass reads what it inspects, and where it reports a failed inspection. */
export interface Inspector extends Pick<RuntimeClient, 'containerStatus' | 'podSandboxStatus'> {
  failed: (id: string, error: Error) => void;
}

/** Whose pass it is, and when it began. */
export interface Pass {
  node: string;
  startedAt: number;
  source: 'relist' | 'events';
  now: () => number;
}

const INSPECT_CONCURRENCY = 16;

export class RuntimeRecords {
  private sandboxes = new Map<string, RuntimeSandbox>();
  private containers = new Map<string, RuntimeContainer>();
  private readonly retryPods = new Set<string>();
  /** The last pass's list answers, when every inspection that pass planned succeeded. */
  private settled: { sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] } | undefined;

  /** Records currently held (for tests and snapshots). */
  list(): { sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] } {
    return { sandboxes: [...this.sandboxes.values()], containers: [...this.containers.values()] };
  }

  /** Some container was last seen created and not started. */
  awaitingStart(): boolean {
    for (const c of this.containers.values()) if (c.state === 'created') return true;
    return false;
  }

  /**
   * One pass over the lists the runtime just answered: inspect what is new, changed or still
   * unresolved, diff against the records held, hold the new records. `pass` says whose pass it
   * is; the outcome's finishedAt is read from `now` at its end.
   */
  async absorb(
    listedSandboxes: RuntimeSandbox[],
    listedContainers: RuntimeContainer[],
    inspector: Inspector,
    pass: Pass,
  ): Promise<RelistOutcome> {
    if (
      this.settled &&
      this.retryPods.size === 0 &&
      sameRecords(this.settled.sandboxes, listedSandboxes) &&
      sameRecords(this.settled.containers, listedContainers)
    ) {
      // The runtime answered with the very records of the last pass (server/cri reuses the
      // records of an unchanged answer), and that pass left nothing to inspect: nothing changed.
      return this.outcome(pass, [], new Set(), this.containers);
    }
    this.settled = undefined;
    const plan = planInspection(this.containers, listedContainers, this.sandboxes, listedSandboxes);
    if (
      plan.containers.length === 0 &&
      plan.sandboxes.length === 0 &&
      this.retryPods.size === 0 &&
      this.sameIds(listedSandboxes, listedContainers)
    ) {
      // Nothing to inspect, nothing appeared or vanished: the held records stand as they are and
      // no transition is possible (the steady state of a quiet node, most relists).
      this.settled = { sandboxes: listedSandboxes, containers: listedContainers };
      return this.outcome(pass, [], new Set(), this.containers);
    }
    const planned = new Set(plan.containers);
    const sandboxOf = new Map<string, string>();
    for (const c of listedContainers) if (planned.has(c.id)) sandboxOf.set(c.id, c.sandboxId);
    const inspectedContainers = await inspectAll(plan.containers, inspector.failed, (id) =>
      inspector.containerStatus(id, sandboxOf.get(id) ?? ''),
    );
    const inspectedSandboxes = await inspectAll(plan.sandboxes, inspector.failed, (id) =>
      inspector.podSandboxStatus(id),
    );

    const sandboxes = new Map<string, RuntimeSandbox>();
    for (const s of listedSandboxes) {
      const fresh = inspectedSandboxes.get(s.id);
      const prev = this.sandboxes.get(s.id);
      sandboxes.set(
        s.id,
        fresh
          ? shareMaps(fresh, s)
          : prev && prev.state === s.state
            ? prev
            : { ...s, inspected: false },
      );
    }
    const uidOfSandbox = (id: string) => sandboxes.get(id)?.uid ?? this.sandboxes.get(id)?.uid;

    const failed = new Set<string>();
    const containers = new Map<string, RuntimeContainer>();
    for (const c of listedContainers) {
      const fresh = inspectedContainers.get(c.id);
      const prev = this.containers.get(c.id);
      if (fresh) containers.set(c.id, shareMaps(fresh, c));
      else if (planned.has(c.id)) {
        // Inspection failed: keep the old record (the diff repeats next pass) or, if new, hold
        // the listed record back so it is reported once it can be read.
        const uid = podUidOf(c, uidOfSandbox);
        if (uid) failed.add(uid);
        if (prev) containers.set(c.id, prev);
      } else containers.set(c.id, prev ?? c);
    }

    const transitions: Transition[] = [];
    const touched = new Set<string>(this.retryPods);
    this.retryPods.clear();
    for (const uid of failed) this.retryPods.add(uid);

    // Sandboxes and containers that vanished, then every current one (same order as before:
    // old ids first, in their order, then new ids).
    for (const id of this.sandboxes.keys()) this.sandboxDiff(id, sandboxes, transitions, touched);
    for (const id of sandboxes.keys())
      if (!this.sandboxes.has(id)) this.sandboxDiff(id, sandboxes, transitions, touched);
    for (const id of this.containers.keys())
      this.containerDiff(id, containers, uidOfSandbox, transitions, touched);
    for (const id of containers.keys())
      if (!this.containers.has(id))
        this.containerDiff(id, containers, uidOfSandbox, transitions, touched);
    for (const uid of failed) touched.add(uid);

    const previousContainers = this.containers;
    this.sandboxes = sandboxes;
    this.containers = containers;
    if (
      failed.size === 0 &&
      inspectedContainers.size === plan.containers.length &&
      inspectedSandboxes.size === plan.sandboxes.length
    )
      this.settled = { sandboxes: listedSandboxes, containers: listedContainers };
    return this.outcome(pass, transitions, touched, previousContainers);
  }

  /** Whether the lists name exactly the ids held now (sizes match and every listed id is held). */
  private sameIds(
    listedSandboxes: readonly RuntimeSandbox[],
    listedContainers: readonly RuntimeContainer[],
  ): boolean {
    if (
      listedSandboxes.length !== this.sandboxes.size ||
      listedContainers.length !== this.containers.size
    )
      return false;
    for (const s of listedSandboxes) if (!this.sandboxes.has(s.id)) return false;
    for (const c of listedContainers) if (!this.containers.has(c.id)) return false;
    return true;
  }

  private sandboxDiff(
    id: string,
    now: ReadonlyMap<string, RuntimeSandbox>,
    out: Transition[],
    touched: Set<string>,
  ): void {
    for (const tr of sandboxTransitions(this.sandboxes.get(id), now.get(id))) {
      out.push(tr);
      touched.add(tr.podUid);
    }
  }

  private containerDiff(
    id: string,
    now: ReadonlyMap<string, RuntimeContainer>,
    uidOfSandbox: (id: string) => string | undefined,
    out: Transition[],
    touched: Set<string>,
  ): void {
    const old = this.containers.get(id);
    const current = now.get(id);
    // A container that vanished because its inspection failed is not gone: it was kept above.
    const c = current ?? old;
    if (!c) return;
    const uid = podUidOf(c, uidOfSandbox);
    if (!uid) return;
    for (const tr of containerTransitions(old, current, uid)) {
      out.push(tr);
      touched.add(uid);
    }
  }

  /**
   * The outcome of a pass over the records now held. Pods are grouped on first use only: the
   * engine asks for the touched and time-due ones, and a quiet relist usually has neither.
   */
  private outcome(
    { node, startedAt, source, now }: Pass,
    transitions: Transition[],
    touched: Set<string>,
    previousContainers: ReadonlyMap<string, RuntimeContainer>,
  ): RelistOutcome {
    const sandboxes = this.sandboxes;
    const containers = this.containers;
    const uidOfSandbox = (id: string) => sandboxes.get(id)?.uid;
    let pods: Map<string, RuntimePodStatus> | undefined;
    const removed = new Set<string>();
    if (touched.size > 0) {
      pods = groupPods(sandboxes, containers, uidOfSandbox);
      for (const uid of touched) if (!pods.has(uid)) removed.add(uid);
    }
    return {
      node,
      startedAt,
      finishedAt: now(),
      source,
      transitions,
      get pods() {
        pods ??= groupPods(sandboxes, containers, uidOfSandbox);
        return pods;
      },
      touched,
      removed,
      previousContainers,
    };
  }
}

/** Reads every id, INSPECT_CONCURRENCY at a time; a failed read is reported and left out. */
async function inspectAll<T>(
  ids: string[],
  failed: (id: string, error: Error) => void,
  read: (id: string) => Promise<T>,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      if (id === undefined) break;
      try {
        out.set(id, await read(id));
      } catch (err) {
        failed(id, asError(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(INSPECT_CONCURRENCY, ids.length) }, worker));
  return out;
}

/** The same record objects in the same order. */
function sameRecords<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The inspected record with the listed record's labels and annotations objects when they hold
 * the same entries (they usually do: the CRI returns the same maps from List and Status), so a
 * node's records keep one copy of each map instead of two.
 */
function shareMaps<
  T extends {
    labels: Readonly<Record<string, string>>;
    annotations: Readonly<Record<string, string>>;
  },
>(
  inspected: T,
  listed: {
    labels: Readonly<Record<string, string>>;
    annotations: Readonly<Record<string, string>>;
  },
): T {
  const labels = sameEntries(inspected.labels, listed.labels);
  const annotations = sameEntries(inspected.annotations, listed.annotations);
  if (!labels && !annotations) return inspected;
  return {
    ...inspected,
    ...(labels ? { labels: listed.labels } : {}),
    ...(annotations ? { annotations: listed.annotations } : {}),
  };
}

function sameEntries(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (a[k] !== b[k] || !Object.hasOwn(b, k)) return false;
  return true;
}

function podUidOf(
  c: RuntimeContainer,
  uidOfSandbox: (id: string) => string | undefined,
): string | undefined {
  return c.labels['io.kubernetes.pod.uid'] ?? uidOfSandbox(c.sandboxId);
}

function groupPods(
  sandboxes: Map<string, RuntimeSandbox>,
  containers: Map<string, RuntimeContainer>,
  uidOfSandbox: (id: string) => string | undefined,
): Map<string, RuntimePodStatus> {
  const pods = new Map<string, RuntimePodStatus>();
  const pod = (uid: string, name: string, namespace: string) => {
    let p = pods.get(uid);
    if (!p) {
      p = { uid, name, namespace, sandboxes: [], containers: [] };
      pods.set(uid, p);
    }
    return p;
  };
  for (const s of sandboxes.values()) pod(s.uid, s.name, s.namespace).sandboxes.push(s);
  for (const c of containers.values()) {
    const uid = podUidOf(c, uidOfSandbox);
    if (!uid) continue;
    pod(
      uid,
      c.labels['io.kubernetes.pod.name'] ?? '',
      c.labels['io.kubernetes.pod.namespace'] ?? '',
    ).containers.push(c);
  }
  for (const p of pods.values()) {
    p.sandboxes.sort((a, b) => b.createdAt - a.createdAt);
    if (!p.name) p.name = p.sandboxes[0]?.name ?? p.uid;
    if (!p.namespace) p.namespace = p.sandboxes[0]?.namespace ?? 'default';
  }
  return pods;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
