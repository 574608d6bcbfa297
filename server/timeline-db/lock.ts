/**
 * One writer per timeline. The engine numbers events itself, so two engines appending to one
 * database would hand out the same seqs; the second one to start is refused with a clear message
 * instead. Readers (export, the CLI's inspection) need no lock.
 *
 * The lock is a file next to the database holding the owner's pid; a lock whose owner is gone is
 * taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { PodscopeStoreError } from './errors';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function lockTimeline(databaseFile: string): () => void {
  if (databaseFile === ':memory:') return () => undefined;
  const path = `${databaseFile}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid} ${hostname()}\n`);
      closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        rmSync(path, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new PodscopeStoreError(
          databaseFile,
          'CANNOT_OPEN',
          `cannot create the lock ${path}: ${String(err)}`,
          err,
        );
      }
      const [pidText, host] = readFileSync(path, 'utf8').trim().split(' ');
      const pid = Number(pidText);
      if (
        Number.isInteger(pid) &&
        pid > 0 &&
        (host !== hostname() || alive(pid)) &&
        pid !== process.pid
      ) {
        throw new PodscopeStoreError(
          databaseFile,
          'LOCKED',
          `another Podscope (pid ${pid}${host && host !== hostname() ? ` on ${host}` : ''}) is recording this timeline; stop it or use another data directory (PODSCOPE_DATA_DIR)`,
        );
      }
      rmSync(path, { force: true }); // stale: its owner is gone
    }
  }
  throw new PodscopeStoreError(databaseFile, 'LOCKED', `cannot take the lock ${path}`);
}
