/**
 * Storing an imported file as a saved timeline, with the file's own initial state, events (their
 * original seqs) and annotations. Saved timelines live in their own tables, apart from the live
 * timeline's events, so a file's seqs never meet the server's.
 *
 * server/store saves timelines only by copying from its live timeline, so this writes the same
 * rows through a second connection to the same database file (WAL: the store's connection sees
 * them on its next read), with the store's own snapshot encoding and id format. All in one
 * IMMEDIATE transaction: a failure stores nothing.
 */
import Database from 'better-sqlite3';
import { encode } from '@/lib/timeline/codec';
import { timelineTimes, type TimelineFile } from '@/lib/timeline/file';
import { PodscopeStoreError, type SavedTimelineSummary } from '@/server/store';
import { wrapError } from '@/server/store/errors';
import { recordSizeAndCheckQuota, type SavedQuota } from '@/server/store/quota';
import { encodeSnapshot } from '@/server/store/snapshot';
import { newTimelineId } from '@/server/store/timelines';

/**
 * What storing a file as a saved timeline writes, in either database (here, and the cluster
 * database's postgres.ts): its summary under a new id, its initial state encoded, its events
 * encoded with their timeline times.
 */
export function importedRows(file: TimelineFile, createdAt: number) {
  const fromSeq = file.initialState.seq;
  const times = timelineTimes(file);
  const { codec, body } = encodeSnapshot(file.initialState);
  const summary: SavedTimelineSummary = {
    id: newTimelineId(),
    title: file.title,
    notes: file.notes,
    from: file.from,
    to: file.to,
    fromSeq,
    toSeq: file.events.at(-1)?.seq ?? fromSeq,
    createdAt,
    eventCount: file.events.length,
    annotationCount: file.annotations.length,
  };
  const events = file.events.map((e, i) => ({ seq: e.seq, t: times[i] ?? e.t, body: encode(e) }));
  return { summary, codec, state: body, events };
}

export function writeImportedTimeline(
  dbPath: string,
  file: TimelineFile,
  createdAt: number,
  quota?: SavedQuota,
): SavedTimelineSummary {
  if (dbPath === ':memory:') {
    throw new PodscopeStoreError(
      dbPath,
      'INVALID',
      'importing a timeline needs a store in a file (a data directory), not :memory:',
    );
  }
  let db: Database.Database;
  try {
    db = new Database(dbPath, { fileMustExist: true });
  } catch (err) {
    throw wrapError(dbPath, 'opening the database to import a timeline', err);
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    const { summary, codec, state, events } = importedRows(file, createdAt);
    const { id } = summary;
    const insertTimeline = db.prepare(
      `INSERT INTO timelines (id, title, notes, from_t, to_t, from_seq, to_seq, created_at,
         initial_codec, initial_state, event_count)
       VALUES (@id, @title, @notes, @from, @to, @fromSeq, @toSeq, @createdAt, @codec, @state, @eventCount)`,
    );
    const insertEvent = db.prepare<[string, number, number, string]>(
      'INSERT INTO timeline_events (timeline_id, seq, t, body) VALUES (?, ?, ?, ?)',
    );
    const insertAnnotation = db.prepare<
      [string, number, string | null, string, string | null, number]
    >(
      'INSERT INTO annotations (timeline_id, t, entity, text, author, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      insertTimeline.run({ ...summary, codec, state });
      for (const e of events) insertEvent.run(id, e.seq, e.t, e.body);
      for (const a of file.annotations)
        insertAnnotation.run(id, a.t, a.entity ?? null, a.text, a.author ?? null, createdAt);
      // Over a quota this throws, and the transaction stores nothing.
      recordSizeAndCheckQuota(db, dbPath, id, quota);
    }).immediate();
    return summary;
  } catch (err) {
    throw wrapError(dbPath, `importing timeline "${file.title}"`, err, 'nothing was stored');
  } finally {
    db.close();
  }
}
