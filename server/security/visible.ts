/**
 * The one namespace filter (lib/timeline/visibility.ts) applied for one viewer
 * (server/security/viewer.ts), wherever a user sees data: the snapshot, cluster.watch (live and
 * backfill), timeline ranges and seeks, saved timelines (the /t/<id> page) and their exports. Each
 * call first asks about the namespaces the data mentions that the viewer has not been asked about,
 * then filters synchronously, so every view of the same data shows the same pods.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { VisibilityFilter } from '@/lib/timeline/visibility';
import type { Viewer } from './viewer';

/**
 * A filter that lives as long as one stream or answer: it learns pods' namespaces from the state
 * it starts from and the PodAdded events that pass, and asks the viewer about each new namespace
 * once. `seek` is how to learn pods added before the events it is given (a state at a time).
 */
export class VisibleView {
  private decided = new Set<string>();
  private readonly filter: VisibilityFilter;
  private allowed: (ns: string) => boolean = () => false;

  private constructor(
    private readonly viewer: Viewer,
    private readonly everything: boolean,
  ) {
    this.filter = new VisibilityFilter((ns) => this.allowed(ns));
  }

  /** The viewer's view; filters nothing for a viewer who sees everything. */
  static async for(viewer: Viewer): Promise<VisibleView> {
    return new VisibleView(viewer, await viewer.seesAll());
  }

  get unfiltered(): boolean {
    return this.everything;
  }

  private async decide(namespaces: Iterable<string>): Promise<void> {
    const open = [...namespaces].filter((ns) => !this.decided.has(ns));
    if (open.length === 0) return;
    this.allowed = await this.viewer.readable(open);
    for (const ns of open) this.decided.add(ns);
  }

  /** Learns a state's pods without returning it (the state a range or backfill continues). */
  async learn(state: ClusterState): Promise<void> {
    if (this.everything) return;
    await this.decide(VisibilityFilter.namespaces(state));
    this.filter.learn(state);
  }

  async state(state: ClusterState): Promise<ClusterState> {
    if (this.everything) return state;
    await this.decide(VisibilityFilter.namespaces(state));
    return this.filter.state(state);
  }

  /**
   * The events the viewer may see. When they are about pods this view has not learned,
   * `seek(t)` gives the state at `t` (the first event's time) to learn them from.
   */
  async events<E extends TimelineEvent>(
    events: readonly E[],
    seek?: (t: number) => ClusterState | Promise<ClusterState>,
  ): Promise<E[]> {
    if (this.everything) return [...events];
    const first = events[0];
    if (seek && first && !this.filter.knowsPodsOf(events)) await this.learn(await seek(first.t));
    await this.decide(VisibilityFilter.namespaces(undefined, events));
    return this.filter.events(events);
  }
}

/** A saved timeline (or anything shaped like one) as the viewer may see it. */
export async function visibleTimeline<
  T extends { initialState: ClusterState; events: TimelineEvent[]; annotations: A[] },
  A extends { entity?: string },
>(viewer: Viewer, saved: T): Promise<T> {
  const view = await VisibleView.for(viewer);
  if (view.unfiltered) return saved;
  const initialState = await view.state(saved.initialState);
  const events = await view.events(saved.events);
  // An annotation on an entity of a hidden pod goes with the pod.
  const shown = new Set<string>();
  for (const node of Object.values(initialState.nodes))
    for (const uid of Object.keys(node.pods)) shown.add(uid);
  for (const e of events) if (e.kind !== 'node' && e.podUid) shown.add(e.podUid);
  const hidden = new Set<string>();
  for (const node of Object.values(saved.initialState.nodes))
    for (const uid of Object.keys(node.pods)) if (!shown.has(uid)) hidden.add(uid);
  for (const e of saved.events)
    if (e.kind !== 'node' && e.podUid && !shown.has(e.podUid)) hidden.add(e.podUid);
  const annotations = saved.annotations.filter(
    (a) => a.entity === undefined || !hidden.has(a.entity.split('/')[0] ?? ''),
  );
  return { ...saved, initialState, events, annotations };
}
