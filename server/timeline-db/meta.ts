/**
 * The meta table's few integers. The high-water marks are why a seq is never handed out twice:
 * max(seq) alone would go back if retention ever deleted the newest rows.
 */
import type { Database as Db, Statement } from 'better-sqlite3';
import { sqliteBuilder } from './schema';

export interface Marks {
  /** The last seq ever assigned. */
  highSeq: number;
  /** Timeline time of that event. */
  highT: number;
  /** Retention floor: events at or below it are gone, and a checkpoint at exactly it remains (0: nothing removed). */
  floorSeq: number;
  floorT: number;
}

const KEYS = {
  highSeq: 'high_seq',
  highT: 'high_t',
  floorSeq: 'floor_seq',
  floorT: 'floor_t',
} as const;

export class MetaTable {
  private readonly get: Statement<[string], number>;
  private readonly put: Statement<[string, number]>;

  constructor(db: Db) {
    // Built against the schema's MetaTable (schema.ts), compiled and prepared once.
    const b = sqliteBuilder;
    this.get = db
      .prepare<[string], number>(
        b.selectFrom('meta').select('value').where('key', '=', '').compile().sql,
      )
      .pluck();
    this.put = db.prepare<[string, number]>(
      b
        .insertInto('meta')
        .values({ key: '', value: 0 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }),
        )
        .compile().sql,
    );
  }

  read(): Marks {
    return {
      highSeq: this.get.get(KEYS.highSeq) ?? 0,
      highT: this.get.get(KEYS.highT) ?? 0,
      floorSeq: this.get.get(KEYS.floorSeq) ?? 0,
      floorT: this.get.get(KEYS.floorT) ?? 0,
    };
  }

  highSeq(): number {
    return this.get.get(KEYS.highSeq) ?? 0;
  }

  /** Call inside a transaction. */
  setHigh(seq: number, t: number): void {
    this.put.run(KEYS.highSeq, seq);
    this.put.run(KEYS.highT, t);
  }

  /** Call inside a transaction. */
  setFloor(seq: number, t: number): void {
    this.put.run(KEYS.floorSeq, seq);
    this.put.run(KEYS.floorT, t);
  }
}
