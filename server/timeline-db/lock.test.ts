import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { lockTimeline } from './lock';
import { tempDirForSuite } from '@/test/tmp';

const dir = tempDirForSuite('podscope-lock-');
let n = 0;
/** A timeline file of its own in the suite's folder. */
const db = () => join(dir, `${++n}.db`);

describe('lockTimeline', () => {
  it('refuses a second writer while the first lives, and frees on release', () => {
    const file = db();
    const release = lockTimeline(file);
    expect(existsSync(`${file}.lock`)).toBe(true);
    // The same process asking again is allowed only through the existing lock (idempotent start).
    writeFileSync(`${file}.lock`, `1 ${hostname()}\n`); // pid 1 is alive and is not us
    expect(() => lockTimeline(file)).toThrow(/another Podscope \(pid 1\)/);
    release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock whose owner is gone', () => {
    const file = db();
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(`${file}.lock`, `${dead} ${hostname()}\n`);
    const release = lockTimeline(file);
    release();
  });

  it('needs no lock in memory', () => {
    expect(() => lockTimeline(':memory:')()).not.toThrow();
  });
});
