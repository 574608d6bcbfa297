/**
 * Retention: removing the oldest part of the live timeline by age and by size.
 *
 * The order of steps keeps every answer correct while the work is spread over many small
 * transactions (so the -wal file stays small and appends interleave):
 *   1. write a checkpoint at the new floor seq S and record the floor, in one transaction;
 *      from then on stateAt/stateAtSeq refuse anything below S and start at S's checkpoint;
 *   2. delete checkpoints below S, a few at a time (each can be megabytes);
 *   3. delete events at or below S, a few thousand at a time, oldest first;
 *   4. hand the freed pages back to the file system with incremental_vacuum, in steps.
 * A crash between steps leaves extra rows below the floor, which the next run removes.
 */
import type { Database as Db } from 'better-sqlite3';
import type { SqliteCheckpoints } from './checkpoints';
import { sqliteCode, wrapError } from './errors';
import type { EventTable } from './events';
import type { Marks } from './meta';

export interface RetentionPolicy {
  /** Remove events observed more than this long before now (clock time). */
  maxAgeMs?: number;
  /** Remove the oldest events until the data in the file (pages in use) is at most this. */
  maxBytes?: number;
}

export interface RetentionReport {
  /** Which limits removed something. */
  reasons: ('maxAge' | 'maxBytes')[];
  eventsRemoved: number;
  checkpointsRemoved: number;
  /** The retention floor afterwards: the oldest seq/time whose state can still be rebuilt. */
  floorSeq: number;
  floorT: number;
  /** Bytes in use in the database before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** Still above maxBytes: what is left (newest state, saved timelines) cannot be removed. */
  overBudget: boolean;
  /** False if the store was closed before the run finished; the next run continues. */
  complete: boolean;
}

/** What retention needs from the store; kept narrow so the order of steps reads in one place. */
export interface RetentionHost {
  db: Db;
  path: string;
  now(): number;
  marks(): Marks;
  events: EventTable;
  checkpoints: SqliteCheckpoints;
  isClosed(): boolean;
  usedBytes(): number;
  /** Writes a checkpoint at `seq` (if missing) and makes it the floor, in one transaction; returns its time. */
  raiseFloor(seq: number): number;
}

export const EVENTS_PER_BATCH = 5_000;
export const CHECKPOINTS_PER_BATCH = 4;
export const VACUUM_PAGES_PER_STEP = 2_048;
/** Size steps re-measure after each round; a few rounds absorb estimation error. */
const SIZE_ROUNDS = 6;
const ROW_SAMPLE = 1_000;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function runRetention(
  host: RetentionHost,
  policy: RetentionPolicy,
): Promise<RetentionReport> {
  const report: RetentionReport = {
    reasons: [],
    eventsRemoved: 0,
    checkpointsRemoved: 0,
    floorSeq: host.marks().floorSeq,
    floorT: host.marks().floorT,
    bytesBefore: 0,
    bytesAfter: 0,
    overBudget: false,
    complete: true,
  };
  try {
    report.bytesBefore = host.usedBytes();
    if (policy.maxAgeMs !== undefined) {
      const cutoff = host.now() - policy.maxAgeMs;
      const through = host.events.seqBefore(cutoff);
      if (through !== undefined && (await dropThrough(host, through, report)))
        report.reasons.push('maxAge');
    }
    // Rows below the floor left by an interrupted run.
    await dropThrough(host, host.marks().floorSeq, report);
    if (policy.maxBytes !== undefined) {
      for (let round = 0; round < SIZE_ROUNDS && !host.isClosed(); round++) {
        const excess = host.usedBytes() - policy.maxBytes;
        if (excess <= 0) break;
        const perRow = host.events.averageRowBytes(ROW_SAMPLE);
        if (perRow === undefined) break;
        const through =
          host.events.seqAtOffset(Math.ceil(excess / perRow) - 1) ?? host.events.maxStoredSeq();
        if (!(await dropThrough(host, through, report))) break;
        if (!report.reasons.includes('maxBytes')) report.reasons.push('maxBytes');
      }
    }
    await vacuum(host);
    if (host.isClosed()) {
      report.complete = false;
      return report;
    }
    report.bytesAfter = host.usedBytes();
    report.overBudget = policy.maxBytes !== undefined && report.bytesAfter > policy.maxBytes;
    report.floorSeq = host.marks().floorSeq;
    report.floorT = host.marks().floorT;
    return report;
  } catch (err) {
    throw wrapError(host.path, 'applying retention', err);
  }
}

/**
 * Makes `through` the floor and deletes what lies below it. Returns whether anything changed.
 * Deleting up to the current floor again is how an interrupted run is finished.
 */
async function dropThrough(
  host: RetentionHost,
  through: number,
  report: RetentionReport,
): Promise<boolean> {
  if (host.isClosed()) return false;
  let changed = false;
  if (through > host.marks().floorSeq) {
    try {
      host.raiseFloor(through);
    } catch (err) {
      // A full database cannot take the checkpoint a new floor needs, and retention is what must
      // free it: fall back to the newest checkpoint already written at or below `through`.
      const existing =
        sqliteCode(err) === 'SQLITE_FULL' ? host.checkpoints.nearestSeq(through) : undefined;
      if (existing === undefined || existing <= host.marks().floorSeq) throw err;
      host.raiseFloor(existing);
    }
    changed = true;
  }
  const floor = host.marks().floorSeq;
  report.floorSeq = floor;
  report.floorT = host.marks().floorT;
  if (floor <= 0) return changed;
  while (!host.isClosed()) {
    const removed = host.checkpoints.deleteOldest(floor, CHECKPOINTS_PER_BATCH);
    if (removed === 0) break;
    report.checkpointsRemoved += removed;
    changed = true;
    await yieldToEventLoop();
  }
  while (!host.isClosed()) {
    const oldest = host.events.oldestRow();
    if (!oldest || oldest.seq > floor) break;
    const removed = host.events.deleteThrough(Math.min(floor, oldest.seq + EVENTS_PER_BATCH - 1));
    report.eventsRemoved += removed;
    changed = true;
    await yieldToEventLoop();
  }
  if (host.isClosed()) report.complete = false;
  return changed;
}

/** Returns free pages to the file system a step at a time (the file had auto_vacuum = INCREMENTAL from creation). */
async function vacuum(host: RetentionHost): Promise<void> {
  let previous = Number.POSITIVE_INFINITY;
  while (!host.isClosed()) {
    const free = host.db.pragma('freelist_count', { simple: true }) as number;
    if (free === 0 || free >= previous) return;
    previous = free;
    host.db.exec(`PRAGMA incremental_vacuum(${VACUUM_PAGES_PER_STEP})`);
    await yieldToEventLoop();
  }
}
