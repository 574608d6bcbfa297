import Database from 'better-sqlite3';
import {
  existsSync,
  openSync,
  readFileSync,
  writeFileSync,
  closeSync,
  writeSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PodscopeStoreError } from './errors';
import { LEGACY_MIGRATIONS, upgradeLegacy } from './legacy';
import { openConnection } from './open';
import { MIGRATIONS, PODSCOPE_APPLICATION_ID, type TimelineMigration } from './schema';
import { openStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { tempDir } from './testing/testkit';

const NAMES = MIGRATIONS.map((m) => m.name);

/** A data directory's file as Podscope wrote it before the one schema, at legacy version `v`. */
function legacyFile(file: string, v: number): Database.Database {
  const db = new Database(file);
  db.pragma(`application_id = ${PODSCOPE_APPLICATION_ID}`);
  upgradeLegacy(db, 0, v, LEGACY_MIGRATIONS);
  return db;
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function storeError(fn: () => unknown): PodscopeStoreError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PodscopeStoreError);
    return err as PodscopeStoreError;
  }
  throw new Error('expected a PodscopeStoreError, nothing was thrown');
}

describe('opening', () => {
  it('creates the directory and timeline.db, in WAL mode, marked as Podscope', () => {
    const dir = join(tmp.dir, 'nested', '.podscope');
    const store = openStore({ path: dir });
    expect(store.path).toBe(join(dir, 'timeline.db'));
    store.close();
    const db = new Database(join(dir, 'timeline.db'), { readonly: true });
    expect(db.pragma('application_id', { simple: true })).toBe(PODSCOPE_APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all()).toEqual(
      NAMES,
    );
    // A Podscope from before the one schema refuses it as newer rather than corrupt.
    expect(db.prepare('SELECT max(version) FROM schema_version').pluck().get()).toBe(4);
    db.close();
  });

  it('accepts a *.db file path and creates its directory', () => {
    const file = join(tmp.dir, 'sub', 'incident.db');
    openStore({ path: file }).close();
    expect(existsSync(file)).toBe(true);
  });

  it('initialises an existing empty file (0 bytes)', () => {
    const file = join(tmp.dir, 'empty.db');
    writeFileSync(file, '');
    const store = openStore({ path: file });
    expect(store.latestSeq()).toBe(0);
    store.close();
  });

  it('works in memory (:memory:) for throwaway timelines', () => {
    const store = openStore({ path: ':memory:' });
    try {
      expect(store.path).toBe(':memory:');
      const events = store.append(new SyntheticWorkload({ seed: 1 }).nextBatch());
      expect(store.stateAtSeq(events.length).seq).toBe(events.length);
    } finally {
      store.close();
    }
  });

  it('reopens without migrating again and keeps the data', () => {
    const store = openStore({ path: tmp.dir });
    store.append(new SyntheticWorkload({ seed: 2 }).nextBatch());
    const seq = store.latestSeq();
    store.close();
    const again = openStore({ path: tmp.dir });
    expect(again.latestSeq()).toBe(seq);
    again.close();
    const db = new Database(join(tmp.dir, 'timeline.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM kysely_migration').pluck().get()).toBe(NAMES.length);
    db.close();
  });
});

describe('refusing files that are not a usable Podscope timeline', () => {
  it('a text file: not a Podscope timeline (not an SQLite database), and leaves it untouched', () => {
    const file = join(tmp.dir, 'notes.db');
    const text = 'hello, this is not a database\n'.repeat(200);
    writeFileSync(file, text);
    const err = storeError(() => openStore({ path: file }));
    expect(err.code).toBe('NOT_PODSCOPE');
    expect(err.message).toBe(`${file}: not a Podscope timeline (not an SQLite database)`);
    expect(String(err)).toMatch(/^PodscopeStoreError: .*notes\.db: not a Podscope timeline/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("another application's SQLite database, and leaves its journal mode alone", () => {
    const file = join(tmp.dir, 'other.db');
    const other = new Database(file);
    other.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
    other.close();
    const err = storeError(() => openStore({ path: file }));
    expect(err.code).toBe('NOT_PODSCOPE');
    expect(err.message).toContain(
      'not a Podscope timeline (an SQLite database with other tables: users)',
    );
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('an SQLite database with a foreign application_id', () => {
    const file = join(tmp.dir, 'foreign.db');
    const other = new Database(file);
    other.pragma('application_id = 1234');
    other.close();
    const err = storeError(() => openStore({ path: file }));
    expect(err.code).toBe('NOT_PODSCOPE');
    expect(err.message).toContain('application_id is 0x4d2');
  });

  it('a database written by a newer Podscope', () => {
    openStore({ path: tmp.dir }).close();
    const db = new Database(join(tmp.dir, 'timeline.db'));
    db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
      '9999_future',
      new Date(0).toISOString(),
    );
    db.close();
    const err = storeError(() => openStore({ path: tmp.dir }));
    expect(err.code).toBe('NEWER_SCHEMA');
    expect(err.message).toContain(
      `written by a newer Podscope (timeline migration 9999_future; this build knows up to ${NAMES.at(-1)})`,
    );
  });

  it('a legacy-scheme database of a version this build does not know', () => {
    const file = join(tmp.dir, 'timeline.db');
    const db = legacyFile(file, 3);
    db.prepare(
      'INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)',
    ).run(9, 'future', 0);
    db.close();
    const err = storeError(() => openStore({ path: tmp.dir }));
    expect(err.code).toBe('NEWER_SCHEMA');
    expect(err.message).toContain('written by a newer Podscope (timeline schema v9');
  });

  it('a corrupt file (damaged b-tree pages)', () => {
    const store = openStore({ path: tmp.dir });
    const workload = new SyntheticWorkload({ seed: 5 });
    for (const b of workload.batches(3_000)) store.append(b);
    store.close();
    const file = join(tmp.dir, 'timeline.db');
    // Overwrite everything after the 100-byte header of page 1 and a stretch of later pages.
    const fd = openSync(file, 'r+');
    const size = statSync(file).size;
    writeSync(fd, Buffer.alloc(4096 - 100, 0xa5), 0, 4096 - 100, 100);
    writeSync(fd, Buffer.alloc(Math.min(64 * 4096, size - 8192), 0x5a), 0, undefined, 8192);
    closeSync(fd);
    const err = storeError(() => {
      const s = openStore({ path: tmp.dir });
      try {
        s.range({ limit: 100_000 });
        if (s.verify().length > 0) throw new Error('verify found problems but nothing threw');
      } finally {
        s.close();
      }
    });
    expect(err.code).toBe('CORRUPT');
    expect(err.message).toContain(file);
    expect(err.message).toContain('corrupt');
  });
});

describe('forward migrations', () => {
  const note: TimelineMigration = {
    name: '9000_checkpoint_notes',
    sqlite: (db) => db.exec("ALTER TABLE checkpoints ADD COLUMN note TEXT NOT NULL DEFAULT ''"),
  };

  it('applies pending migrations once, in order, recording each', () => {
    const file = join(tmp.dir, 'timeline.db');
    openConnection(file).close();
    const db = openConnection(file, { migrations: [...MIGRATIONS, note] });
    expect(db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all()).toEqual([
      ...NAMES,
      note.name,
    ]);
    const columns = db.prepare("SELECT name FROM pragma_table_info('checkpoints')").pluck().all();
    expect(columns).toContain('note');
    db.close();
    // Opening again is a no-op (ALTER TABLE would fail if run twice).
    openConnection(file, { migrations: [...MIGRATIONS, note] }).close();
  });

  it('a failing migration leaves the previous state intact', () => {
    const file = join(tmp.dir, 'timeline.db');
    openConnection(file).close();
    const broken: TimelineMigration = {
      name: '9000_broken',
      sqlite: (db) => {
        db.exec('CREATE TABLE half_done (x)');
        db.exec('THIS IS NOT SQL');
      },
    };
    const err = storeError(() => openConnection(file, { migrations: [...MIGRATIONS, broken] }));
    expect(err.message).toContain('migrating the timeline schema (9000_broken) failed');
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM kysely_migration').pluck().get()).toBe(NAMES.length);
    expect(
      db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").pluck().get(),
    ).toBe(0);
    db.close();
  });
});

describe('v2: annotation authors', () => {
  it('a v1 file gains the column; its annotations read as before, new ones keep their author', () => {
    const file = join(tmp.dir, 'timeline.db');
    legacyFile(file, 1).close();
    const store = openStore({ path: tmp.dir });
    const workload = new SyntheticWorkload({ seed: 3 });
    const [batch] = [...workload.batches(50)];
    const events = store.append(batch ?? []);
    const from = events[0]?.t ?? 0;
    const to = events[events.length - 1]?.t ?? 0;
    const saved = store.saveTimeline({
      title: 'migrated',
      from,
      to,
      annotations: [{ t: from, text: 'no author' }],
    });
    store.addAnnotation(saved.id, { t: to, text: 'with author', author: 'Mei (on call)' });
    const read = store.getTimeline(saved.id).annotations;
    expect(read.map((a) => [a.text, a.author])).toEqual([
      ['no author', undefined],
      ['with author', 'Mei (on call)'],
    ]);
    expect(() =>
      store.addAnnotation(saved.id, { t: to, text: 'x', author: 'a'.repeat(201) }),
    ).toThrow(/annotation author is 201 chars; the limit is 200/);
    store.close();
  });
});

describe('v3: saved timelines record their size', () => {
  it('fills in the size of timelines saved before the migration, and keeps it through 0007', () => {
    const file = join(tmp.dir, 'timeline.db');
    const v2 = legacyFile(file, 2);
    v2.prepare(
      `INSERT INTO timelines (id, title, notes, from_t, to_t, from_seq, to_seq, created_at,
         initial_codec, initial_state, event_count) VALUES ('old', 't', '', 0, 1, 0, 2, 0, 'json', ?, 2)`,
    ).run(Buffer.alloc(1000));
    const insert = v2.prepare(
      "INSERT INTO timeline_events (timeline_id, seq, t, body) VALUES ('old', ?, 0, ?)",
    );
    insert.run(1, 'x'.repeat(300));
    insert.run(2, '节'.repeat(100)); // 300 bytes of UTF-8
    v2.close();
    const db = openConnection(file);
    expect(db.prepare("SELECT bytes FROM saved_timelines WHERE id = 'old'").pluck().get()).toBe(
      1600,
    );
    expect(
      db
        .prepare("SELECT count(*) FROM saved_timeline_events WHERE timeline_id = 'old'")
        .pluck()
        .get(),
    ).toBe(2);
    db.close();
  });
});

describe('0008: one checkpoints table', () => {
  it("moves the cluster's and the embedded log's checkpoints into it", () => {
    const file = join(tmp.dir, 'cluster.db');
    const before = openConnection(file, { upTo: '0007_embedded_log' });
    before
      .prepare(
        `INSERT INTO cluster_checkpoints (gid, t_max, epochs, base, codec, body, created_at)
         VALUES (2048, 5, '{"n":"e1"}', 1, 'json', ?, 9)`,
      )
      .run(Buffer.from('{"seq":2048,"t":5,"nodes":{}}'));
    before
      .prepare(
        `INSERT INTO checkpoints (seq, t, codec, body, created_at) VALUES (7, 3, 'json', ?, 8)`,
      )
      .run(Buffer.from('{"seq":7,"t":3,"nodes":{}}'));
    before.close();
    const db = openConnection(file);
    expect(
      db.prepare('SELECT seq, t_max, epochs, base, created_at FROM checkpoints ORDER BY seq').all(),
    ).toEqual([
      { seq: 7, t_max: 3, epochs: '{}', base: 0, created_at: 8 },
      { seq: 2048, t_max: 5, epochs: '{"n":"e1"}', base: 1, created_at: 9 },
    ]);
    expect(
      db
        .prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'cluster_checkpoints'")
        .pluck()
        .get(),
    ).toBe(0);
    db.close();
  });
});
