import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { procCpuMs, threadCpuMs, threadCpuPct } from './server';

describe('threadCpuMs / threadCpuPct', () => {
  it('gives the main thread under the process id and the rest by their own ids', () => {
    const threads = threadCpuMs(process.pid);
    expect(threads.has(process.pid)).toBe(true);
    expect(threads.size).toBeGreaterThan(1); // V8's and libuv's threads at least
    const sum = [...threads.values()].reduce((a, b) => a + b, 0);
    // Threads that ended are not listed, so the sum can only fall short of the process's total.
    expect(sum).toBeLessThanOrEqual(procCpuMs(process.pid) + 10);
  });

  it('tells a busy worker thread from the idle main thread that waits for it', async () => {
    // The worker stays alive until `after` is read: a thread that ended is no longer listed.
    const w = new Worker(
      `const { parentPort } = require('node:worker_threads');
       let x = 0; const end = Date.now() + 400; while (Date.now() < end) x += Math.sqrt(x + 1);
       parentPort.postMessage('spun'); setInterval(() => {}, 1000);`,
      { eval: true },
    );
    const before = threadCpuMs(process.pid);
    const t0 = Date.now();
    await new Promise((resolve) => w.once('message', resolve));
    const after = threadCpuMs(process.pid);
    await w.terminate();
    const { main, others } = threadCpuPct(before, after, process.pid, Date.now() - t0);
    expect(others.length).toBeGreaterThan(0);
    expect([...others].sort((a, b) => b - a)).toEqual(others); // busiest first
    expect(others[0]).toBeGreaterThan(main);
  });

  it('is empty for a process that does not exist, and a thread that started counts from zero', () => {
    expect(threadCpuMs(2 ** 22 + 12345).size).toBe(0);
    const before = new Map([[1, 50]]);
    const after = new Map([
      [1, 150],
      [2, 300],
    ]);
    expect(threadCpuPct(before, after, 1, 1000)).toEqual({ main: 10, others: [30] });
  });
});
