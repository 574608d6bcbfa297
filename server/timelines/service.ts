/**
 * Saved incident timelines: save a period of the live recording, read, annotate, delete, export
 * as a file, import a file. Stateless: everything lives in its storage (storage.ts) — the SQLite
 * store of a data directory, or in cluster mode on PostgreSQL the cluster database every replica
 * shares (postgres.ts).
 */
import { gzipSync } from 'node:zlib';
import {
  buildTimelineFile,
  DEFAULT_LIMITS,
  isTimelineFileError,
  parseTimelineBytes,
  serializeTimelineFile,
  type FileLimits,
  type TimelineFile,
} from '@/lib/timeline/file';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import { PodscopeStoreError } from '@/server/timeline-db';
import type {
  Annotation,
  AnnotationInput,
  SaveTimelineInput,
  SavedTimeline,
  SavedTimelineSummary,
} from '@/server/timeline-db';
import type { SavedQuota } from '@/server/timeline-db/quota';
import { decodeTextUpload, decodeUpload } from './decode';
import type { SavedStorage } from './storage';
import { PODSCOPE_VERSION } from './version';

export interface ExportedFile {
  body: Buffer;
  /** A safe file name: the title's letters and digits, then the id. */
  filename: string;
  contentType: string;
}

/**
 * The live recording, when the store does not hold it (cluster mode: the cluster timeline in
 * PostgreSQL, read through the replica — server/cluster/console.ts stateAt and range).
 */
export interface LiveRecording {
  stateAt(t: number): Promise<ClusterState>;
  range(q: { from: number; to: number; afterSeq: number; limit: number }): Promise<TimelineEvent[]>;
}

export interface TimelinesOptions {
  version?: string;
  limits?: Partial<FileLimits>;
  /** Quotas imports (and saves from a `recording`) must respect (live saves: the store's own). */
  quota?: SavedQuota;
  /** Save periods from this recording instead of the storage's own live timeline. */
  recording?: LiveRecording;
  now?: () => number;
}

const PAGE = 10_000;

export class TimelinesService {
  private readonly version: string;

  constructor(
    private readonly storage: SavedStorage,
    private readonly options: TimelinesOptions = {},
  ) {
    this.version = options.version ?? PODSCOPE_VERSION;
  }

  /** A period of the storage's own live timeline (the store of `npm start`). */
  async save(input: SaveTimelineInput): Promise<SavedTimelineSummary> {
    if (!this.storage.saveLive)
      throw new PodscopeStoreError(
        this.storage.where,
        'INVALID',
        'no live timeline is recorded here to save a period of',
      );
    return this.storage.saveLive(input);
  }

  /** A period of the live recording: the `recording` when there is one, else the storage's. */
  async savePeriod(input: SaveTimelineInput): Promise<SavedTimelineSummary> {
    const { recording } = this.options;
    return recording ? this.saveFrom(recording, input) : this.save(input);
  }

  /**
   * A period of a recording the storage does not hold, stored as an import is: the state at
   * `from`, the events after it up to `to`, checked as an imported file is (limits included) —
   * so a period too large to save is refused whole, and nothing is stored.
   */
  private async saveFrom(
    recording: LiveRecording,
    input: SaveTimelineInput,
  ): Promise<SavedTimelineSummary> {
    const path = this.storage.where;
    if (input.title.trim() === '')
      throw new PodscopeStoreError(path, 'INVALID', 'a saved timeline needs a title');
    if (input.to < input.from)
      throw new PodscopeStoreError(
        path,
        'INVALID',
        `timeline "to" (${input.to}) is before "from" (${input.from})`,
      );
    const limits = { ...DEFAULT_LIMITS, ...this.options.limits };
    const initialState = await recording.stateAt(input.from);
    const events: TimelineEvent[] = [];
    let after = initialState.seq;
    for (;;) {
      const page = await recording.range({
        from: input.from,
        to: input.to,
        afterSeq: after,
        limit: PAGE,
      });
      events.push(...page);
      if (events.length > limits.maxEvents)
        throw new PodscopeStoreError(
          path,
          'TOO_LARGE',
          `the period holds more than ${limits.maxEvents} events; save a shorter one`,
        );
      const last = page.at(-1);
      if (page.length < PAGE || !last) break;
      after = last.seq;
    }
    const createdAt = (this.options.now ?? Date.now)();
    const built = buildTimelineFile({
      title: input.title,
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      createdAt,
      from: input.from,
      to: input.to,
      initialState,
      events,
      annotations: input.annotations ?? [],
      podscope: this.version,
      kind: 'saved',
    });
    let file: TimelineFile;
    try {
      file = parseTimelineBytes(Buffer.from(serializeTimelineFile(built), 'utf8'), { limits });
    } catch (err) {
      if (!isTimelineFileError(err)) throw err;
      throw new PodscopeStoreError(path, 'TOO_LARGE', `the period cannot be saved: ${err.message}`);
    }
    return this.storage.insert(file, createdAt, this.options.quota);
  }

  list(): Promise<SavedTimelineSummary[]> {
    return this.storage.list();
  }

  get(id: string): Promise<SavedTimeline> {
    return this.storage.get(id);
  }

  /** True when a saved timeline has this id (the share page answers 404 otherwise). */
  exists(id: string): Promise<boolean> {
    return this.storage.exists(id);
  }

  annotate(id: string, annotation: AnnotationInput): Promise<Annotation> {
    return this.storage.annotate(id, annotation);
  }

  delete(id: string): Promise<boolean> {
    return this.storage.delete(id);
  }

  /**
   * The saved timeline as a self-contained file (FORMAT.md). `saved`: the timeline as one viewer
   * may see it (server/security/visible.ts); default: whole.
   */
  async exportFile(id: string, saved?: SavedTimeline): Promise<TimelineFile> {
    return fileOf(saved ?? (await this.storage.get(id)), this.version);
  }

  async exportBytes(
    id: string,
    options: { gzip?: boolean; saved?: SavedTimeline } = {},
  ): Promise<ExportedFile> {
    const file = await this.exportFile(id, options.saved);
    const json = Buffer.from(serializeTimelineFile(file), 'utf8');
    const name = `${fileStem(file.title)}-${id.slice(0, 8)}.podscope.json`;
    if (options.gzip) {
      return { body: gzipSync(json), filename: `${name}.gz`, contentType: 'application/gzip' };
    }
    return { body: json, filename: name, contentType: 'application/json; charset=utf-8' };
  }

  /** Validates and stores a file (plain or gzip bytes). Rejects with TimelineFileError, storing nothing. */
  async importBytes(bytes: Uint8Array): Promise<SavedTimelineSummary> {
    return this.importFile(decodeUpload(bytes, this.options.limits));
  }

  /** Like importBytes, for JSON text or base64 (gzip or plain) sent as a string. */
  async importText(text: string): Promise<SavedTimelineSummary> {
    return this.importFile(decodeTextUpload(text, this.options.limits));
  }

  /** Stores an already-validated file. */
  importFile(file: TimelineFile): Promise<SavedTimelineSummary> {
    return this.storage.insert(file, file.createdAt, this.options.quota);
  }
}

/** A saved timeline as a self-contained file (FORMAT.md). */
function fileOf(saved: SavedTimeline, podscope: string): TimelineFile {
  return buildTimelineFile({
    title: saved.title,
    notes: saved.notes,
    createdAt: saved.createdAt,
    from: saved.from,
    to: saved.to,
    initialState: saved.initialState,
    events: saved.events,
    annotations: saved.annotations,
    podscope,
    kind: 'saved',
  });
}

/** Letters, digits and dashes from the title (any script), at most 60 characters. */
export function fileStem(title: string): string {
  const stem = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'timeline';
}
