/**
 * Where saved timelines live, as the service (service.ts) sees it: one asynchronous interface
 * over server/timeline-db's one saved-timeline store — in the SQLite store of a data directory
 * (embedded mode, and a cluster on SQLite: `savedInStore` below), or in the cluster database on
 * PostgreSQL, shared by every console replica (SavedTimelineStore).
 */
import type { TimelineFile } from '@/lib/timeline/file';
import type {
  Annotation,
  AnnotationInput,
  SaveTimelineInput,
  SavedTimeline,
  SavedTimelineSummary,
  TimelineStore,
} from '@/server/timeline-db';
import type { SavedQuota } from '@/server/timeline-db/quota';

export interface SavedStorage {
  /** Where they live, for error messages (a database file, or a redacted PostgreSQL URL). */
  readonly where: string;
  /**
   * Copies a period of this storage's own live timeline (the store of `npm start`); absent where
   * the live recording lives elsewhere (the service then reads it from its `recording`).
   */
  readonly saveLive?: (input: SaveTimelineInput) => Promise<SavedTimelineSummary>;
  /** Stores a validated file as a new saved timeline: all or nothing, within `quota`. */
  insert(file: TimelineFile, createdAt: number, quota?: SavedQuota): Promise<SavedTimelineSummary>;
  /** Newest first. */
  list(): Promise<SavedTimelineSummary[]>;
  /** Throws NOT_FOUND when there is no such timeline. */
  get(id: string): Promise<SavedTimeline>;
  exists(id: string): Promise<boolean>;
  annotate(id: string, annotation: AnnotationInput): Promise<Annotation>;
  /** False when there was no such timeline. */
  delete(id: string): Promise<boolean>;
}

/** The parts of TimelineStore the SQLite storage uses. */
export type TimelinesStore = Pick<
  TimelineStore,
  | 'path'
  | 'saveTimeline'
  | 'importTimeline'
  | 'getTimeline'
  | 'listTimelines'
  | 'hasTimeline'
  | 'deleteTimeline'
  | 'addAnnotation'
>;

/** Saved timelines in a data directory's SQLite store (synchronous underneath). */
export function savedInStore(store: TimelinesStore): SavedStorage {
  // A store error arrives as a rejection, as PostgreSQL's do.
  const settle = <T>(fn: () => T): Promise<T> => Promise.resolve().then(fn);
  return {
    where: store.path,
    saveLive: (input) => settle(() => store.saveTimeline(input)),
    insert: (file, createdAt, quota) => settle(() => store.importTimeline(file, createdAt, quota)),
    list: () => settle(() => store.listTimelines()),
    get: (id) => settle(() => store.getTimeline(id)),
    exists: (id) => settle(() => store.hasTimeline(id)),
    annotate: (id, annotation) => settle(() => store.addAnnotation(id, annotation)),
    delete: (id) => settle(() => store.deleteTimeline(id)),
  };
}
