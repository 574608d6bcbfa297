/**
 * The events the log shows, kept up to date rather than refiltered: the buffer only ever appends
 * to its array (a reset or a trim replaces it), so with the same filter and selection only the
 * events that arrived since the last call need a look. Equal to
 * `events.filter((e) => matchesFilter(e, filter, selection))`, and the same array when nothing
 * new matched.
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { matchesFilter, type LogFilter } from '@/components/log/filter';
import type { Layer } from './entity';

type Selection = { id: string; layer: Layer } | undefined;

export class VisibleEvents {
  private events: readonly TimelineEvent[] | undefined;
  private scanned = 0;
  private filter: LogFilter | undefined;
  private selection: Selection;
  private out: readonly TimelineEvent[] = [];

  get(
    events: readonly TimelineEvent[],
    filter: LogFilter,
    selection: Selection,
  ): readonly TimelineEvent[] {
    const same =
      events === this.events &&
      this.scanned <= events.length &&
      filter === this.filter &&
      selection?.id === this.selection?.id &&
      selection?.layer === this.selection?.layer;
    if (!same) {
      this.events = events;
      this.filter = filter;
      this.selection = selection;
      this.out = events.filter((e) => matchesFilter(e, filter, selection));
    } else if (this.scanned < events.length) {
      const fresh = events.slice(this.scanned).filter((e) => matchesFilter(e, filter, selection));
      if (fresh.length > 0) this.out = this.out.concat(fresh);
    }
    this.scanned = events.length;
    return this.out;
  }
}
