/**
 * The detail part of the overview's stream as a ClusterSource, so the console's diagram, panel,
 * log and animations run unchanged for the nodes in view. It does not open a stream of its own:
 * the overview's one subscription feeds it (snapshot(), events()). History is not loaded from
 * the server at cluster scale (`history: false`): the timeline covers what arrived while open.
 */
import type { ClusterSource, SourceStatus, WatchHandlers } from '@/components/data/source';
import type { TimelineEvent } from '@/lib/timeline/events';
import { emptyState, type ClusterState } from '@/lib/timeline/state';

export class DetailRelay implements ClusterSource {
  readonly history = false;
  private handlers: WatchHandlers | undefined;
  private latest: ClusterState | undefined;
  private status: { s: SourceStatus; detail?: string } = { s: 'connecting' };

  constructor(readonly live: boolean) {}

  watch(h: WatchHandlers): () => void {
    this.handlers = h;
    queueMicrotask(() => {
      if (this.handlers !== h) return;
      h.onSnapshot(this.latest ?? emptyState());
      h.onStatus(this.status.s, this.status.detail);
    });
    return () => {
      if (this.handlers === h) this.handlers = undefined;
    };
  }

  snapshot(state: ClusterState): void {
    this.latest = state;
    this.handlers?.onSnapshot(state);
  }

  events(events: TimelineEvent[]): void {
    if (events.length > 0) this.handlers?.onEvents(events);
  }

  setStatus(s: SourceStatus, detail?: string): void {
    this.status = detail === undefined ? { s } : { s, detail };
    this.handlers?.onStatus(s, detail);
  }

  range(): Promise<TimelineEvent[]> {
    return Promise.resolve([]);
  }

  stateAt(): Promise<ClusterState> {
    return Promise.resolve(this.latest ?? emptyState());
  }
}
