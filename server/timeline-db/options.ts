/**
 * What a TimelineStore is opened with (StoreOptions, its clock), what it reports (TimelineBounds,
 * StoreStats), and when it writes a checkpoint without a fixed interval (the adaptive rule).
 */
import type { SavedQuota } from './quota';
import type { RetentionPolicy } from './retention';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Without a fixed `checkpointEvery`, checkpoints follow the cost of a seek. A seek decodes the
 * nearest checkpoint and then every event after it; writing a checkpoint encodes the whole state
 * on the append path. A new one is written once the events since the last add up to
 * `eventBytesPerCheckpointByte` times its JSON size: at 1 a churning 110-pod node wrote its
 * ~0.5 MB state every ~9 relists, ~7 % of its relists' CPU; at 2 that halves, and a seek folds
 * at most twice a checkpoint's worth of events after decoding it (on average as much as the
 * checkpoint itself). A small cluster gets a checkpoint every thousand-odd events (seeks stay
 * fast), a 10,000-pod one much more rarely (writing tens of megabytes every few seconds would
 * starve the relist loops, and parsing them dominates such a seek anyway). Bounded both ways.
 */
export const ADAPTIVE_CHECKPOINTS = {
  minEvents: 1_000,
  maxEvents: 50_000,
  eventBytesPerCheckpointByte: 2,
} as const;

/** The adaptive rule: `events` (`bytes` of JSON) since a checkpoint of `checkpointBytes`. */
export function adaptiveCheckpointDue(
  events: number,
  bytes: number,
  checkpointBytes: number,
): boolean {
  if (events >= ADAPTIVE_CHECKPOINTS.maxEvents) return true;
  return (
    events >= ADAPTIVE_CHECKPOINTS.minEvents &&
    bytes >= ADAPTIVE_CHECKPOINTS.eventBytesPerCheckpointByte * checkpointBytes
  );
}

export interface StoreOptions {
  /** A directory (default `.podscope`, holding `timeline.db`), a `*.db` file, or `:memory:`. */
  path?: string;
  /** Applied by `retention()` when it is called without a policy. */
  retention?: RetentionPolicy;
  /**
   * Write a checkpoint once exactly this many events have been appended since the last. Default:
   * adaptive (ADAPTIVE_CHECKPOINTS), once the events since the last add up to twice its size.
   */
  checkpointEvery?: number;
  /** Used for retention's age cut-off and the created-at of checkpoints and saved timelines. */
  clock?: Clock;
  /** Refuse events whose encoded JSON is larger than this many bytes (default 256 KiB). */
  maxEventBytes?: number;
  /** Quotas on saved timelines, and how long they are kept (see expireSavedTimelines). */
  saved?: SavedQuota & { maxAgeMs?: number };
  /**
   * Hard cap on the database file: writes that would grow it further fail with DISK_FULL and
   * change nothing. A backstop behind retention's `maxBytes`, which is only applied periodically.
   */
  hardLimitBytes?: number;
}

/** What the timeline currently holds. */
export interface TimelineBounds {
  /** The oldest seq whose state `stateAtSeq` can still produce (0 when nothing was ever removed). */
  floorSeq: number;
  /** The oldest moment `stateAt` accepts (the floor checkpoint's time, or 0). */
  floorT: number;
  /** The oldest stored event, if any. */
  oldestSeq?: number;
  oldestT?: number;
  /** The last seq ever assigned and its timeline time. */
  latestSeq: number;
  latestT: number;
}

export interface StoreStats {
  path: string;
  /** Bytes in use inside the database file (pages not on the free list). */
  usedBytes: number;
  /** Size of the database (in pages, including changes still in the -wal file). */
  fileBytes: number;
  events: number;
  checkpoints: number;
  timelines: number;
}
