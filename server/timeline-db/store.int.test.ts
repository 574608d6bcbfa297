/**
 * Durability against a killed process and behaviour on a full file system, with real processes
 * and real file systems (see fixtures/writer.ts for the child).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, reduce, type TimelineEvent, type UnsequencedEvent } from '@/lib/timeline';
import { PodscopeStoreError } from './errors';
import { openStore } from './store';
import { SyntheticWorkload } from '@/lib/timeline/synthetic';
import { tempDir } from './testing/testkit';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRITER = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));

interface KilledRun {
  /** latestSeq the child saw when it opened the store. */
  startSeq: number;
  /** Every seq the child printed as committed. */
  printed: number[];
  signal: NodeJS.Signals | null;
}

/**
 * Starts the writer and SIGKILLs it `delayMs` after it has reported `commits` committed batches.
 * The delay only varies where in its loop (encoding, transaction, commit, printing) the kill
 * lands; correctness does not depend on it.
 */
function runAndKill(
  dir: string,
  seed: number,
  commits: number,
  delayMs: number,
): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, 'loop', dir, String(seed)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: KilledRun = { startSeq: -1, printed: [], signal: null };
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const [word, value] = line.split(' ');
      if (word === 'ready') run.startSeq = Number(value);
      if (word === 'committed') {
        run.printed.push(Number(value));
        if (run.printed.length === commits) {
          if (delayMs === 0) child.kill('SIGKILL');
          else setTimeout(() => child.kill('SIGKILL'), delayMs);
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      run.signal = signal;
      if (signal !== 'SIGKILL') reject(new Error(`writer exited with ${code}: ${stderr}`));
      else resolve(run);
    });
  });
}

/** The batches the writer produces for a seed (it is deterministic). */
function writerBatches(seed: number, events: number): UnsequencedEvent[][] {
  return [...new SyntheticWorkload({ seed, batchMin: 100, batchMax: 300 }).batches(events)];
}

describe('a writer killed with SIGKILL', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it('loses nothing append had returned, leaves no partial batch, and never reuses a seq', async () => {
    let expectedStart = 0;
    const delays = [0, 1, 2, 3, 5, 8];
    for (const [cycle, delayMs] of delays.entries()) {
      const seed = 101 + cycle;
      const run = await runAndKill(tmp.dir, seed, 10 + cycle * 5, delayMs);
      expect(run.signal).toBe('SIGKILL');
      // Each writer continues where the killed one left off.
      expect(run.startSeq).toBe(expectedStart);
      expect(run.printed[0]).toBeGreaterThan(expectedStart);

      const store = openStore({ path: tmp.dir });
      try {
        expect(store.verify()).toEqual([]);
        const latest = store.latestSeq();
        const lastPrinted = run.printed[run.printed.length - 1] ?? 0;
        expect(latest).toBeGreaterThanOrEqual(lastPrinted);
        // Every seq 1..latest is there exactly once: nothing lost, nothing duplicated.
        const all = store.range({ limit: Number.POSITIVE_INFINITY });
        expect(all.map((e) => e.seq)).toEqual(Array.from({ length: latest }, (_, i) => i + 1));
        for (const seq of run.printed) expect(all[seq - 1]?.seq).toBe(seq);

        // The killed writer's rows are whole batches, identical to what it was given.
        const batches = writerBatches(seed, latest - run.startSeq);
        const expected: TimelineEvent[] = [];
        const boundaries: number[] = [];
        let seq = run.startSeq;
        for (const b of batches) {
          for (const e of b) expected.push({ ...e, seq: ++seq });
          boundaries.push(seq);
        }
        expect(boundaries).toContain(latest);
        expect(all.slice(run.startSeq)).toEqual(expected.slice(0, latest - run.startSeq));

        // The state rebuilt through checkpoints equals the fold of what is stored.
        expect(store.stateAtSeq(latest)).toEqual(all.reduce(reduce, emptyState()));
        expectedStart = latest;
      } finally {
        store.close();
      }
    }
    const store = openStore({ path: tmp.dir });
    try {
      expect(store.append(writerBatches(999, 1)[0] ?? [])[0]?.seq).toBe(expectedStart + 1);
    } finally {
      store.close();
    }
  });
});

/** Mounting a small tmpfs needs root (CAP_SYS_ADMIN); elsewhere that test is skipped. */
function mountTmpfs(dir: string, size: string): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'podscope-test', dir], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

describe('a full file system', () => {
  const mountPoint = mkdtempSync(join(tmpdir(), 'podscope-full-'));
  let mounted = false;
  beforeAll(() => {
    mounted = mountTmpfs(mountPoint, '4m');
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('(tmpfs, ENOSPC) fails the batch whole with DISK_FULL and stays readable', (ctx) => {
    if (!mounted) ctx.skip();
    const store = openStore({ path: mountPoint });
    try {
      const workload = new SyntheticWorkload({ seed: 61 });
      const committed: TimelineEvent[] = [];
      let failure: unknown;
      for (let i = 0; i < 100_000 && failure === undefined; i++) {
        try {
          committed.push(...store.append(workload.nextBatch()));
        } catch (err) {
          failure = err;
        }
      }
      expect(failure).toBeInstanceOf(PodscopeStoreError);
      const err = failure as PodscopeStoreError;
      expect(err.code).toBe('DISK_FULL');
      expect(err.message).toContain(`${mountPoint}/timeline.db: appending`);
      expect(err.message).toContain('disk full');
      expect(err.message).toContain('nothing from this batch was written');
      expect(store.latestSeq()).toBe(committed[committed.length - 1]?.seq);
      expect(store.range({ limit: Number.POSITIVE_INFINITY })).toEqual(committed);
      expect(store.stateAtSeq(store.latestSeq())).toEqual(committed.reduce(reduce, emptyState()));
    } finally {
      store.close();
    }
    // After the process lets go, the file is sound and holds exactly the committed batches.
    const again = openStore({ path: mountPoint });
    try {
      expect(again.verify()).toEqual([]);
      expect(again.count()).toBe(again.latestSeq());
    } finally {
      again.close();
    }
  });

  it('(RLIMIT_FSIZE, any user) a refused write fails the batch whole and leaves the file sound', () => {
    const tmp = tempDir();
    try {
      // bash's ulimit -f counts KiB; SIGXFSZ is ignored so the write fails with EFBIG instead.
      const out = execFileSync(
        'bash',
        [
          '-c',
          `trap '' XFSZ; ulimit -f 3072; exec "$0" --import tsx "$1" fill "$2" 7`,
          process.execPath,
          WRITER,
          tmp.dir,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      const line = out.trim().split('\n').pop() ?? '';
      const result = JSON.parse(line) as {
        name: string;
        code?: string;
        message: string;
        committed: number;
        count: number;
        latestSeq: number;
        contiguous: boolean;
        stateMatchesFold: boolean;
      };
      expect(result.name).toBe('PodscopeStoreError');
      expect(['DISK_FULL', 'IO']).toContain(result.code);
      expect(result.message).toContain('nothing from this batch was written');
      expect(result.committed).toBeGreaterThan(0);
      expect(result.count).toBe(result.committed);
      expect(result.latestSeq).toBe(result.committed);
      expect(result.contiguous).toBe(true);
      expect(result.stateMatchesFold).toBe(true);
      const store = openStore({ path: tmp.dir });
      try {
        expect(store.verify()).toEqual([]);
        expect(store.count()).toBe(result.committed);
      } finally {
        store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });
});
