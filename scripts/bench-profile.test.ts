/**
 * scripts/bench-profile.mjs: SIGHUP starts and stops the CPU profile of the main thread and of
 * the worker threads that boot through server/engine/workers/boot.mjs (the relist workers), each
 * written to its own file — the workers' before the main thread's.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('bench-profile.mjs', () => {
  it('profiles the main thread and each booted worker between two SIGHUPs', async () => {
    dir = mkdtempSync(join(tmpdir(), 'podscope-bench-profile-'));
    // A worker entry that keeps its thread busy in a function the profile can name.
    const entry = join(dir, 'spin.mjs');
    writeFileSync(
      entry,
      `import { parentPort } from 'node:worker_threads';
       parentPort.postMessage('up');
       const end = () => Date.now() + 20;
       function spinInWorker() { let x = 0; const e = end(); while (Date.now() < e) x += Math.sqrt(x + 1); return x; }
       %NeverOptimizeFunction(spinInWorker);
       setInterval(spinInWorker, 25);`,
    );
    const main = join(dir, 'main.mjs');
    writeFileSync(
      main,
      `import { Worker } from 'node:worker_threads';
       const boot = ${JSON.stringify(join(ROOT, 'server/engine/workers/boot.mjs'))};
       const workerData = { entry: ${JSON.stringify(`file://${entry}`)}, tsconfig: ${JSON.stringify(join(ROOT, 'tsconfig.json'))} };
       let up = 0;
       for (let i = 0; i < 2; i++)
         new Worker(boot, { workerData }).on('message', () => ++up === 2 && process.stdout.write('ready\\n'));
       setInterval(() => {}, 1000);`,
    );
    const child = spawn(
      process.execPath,
      // spinInWorker is never optimised (%NeverOptimizeFunction): once hot, the timer's callback
      // took it inlined and its samples were filed under listOnTimeout — even with TurboFan's
      // inlining off (--no-turbo-inlining still failed a run under load).
      ['--allow-natives-syntax', '--import', join(ROOT, 'scripts/bench-profile.mjs'), main],
      {
        env: {
          ...process.env,
          PODSCOPE_BENCH_PROFILE_DIR: dir,
          PODSCOPE_BENCH_PROFILE_HOOK: join(ROOT, 'scripts/bench-profile.mjs'),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      // Both workers are up (their entries ran, so the hook is listening).
      await new Promise<void>((ok) => child.stdout.on('data', () => ok()));
      child.kill('SIGHUP');
      await sleep(2_000);
      child.kill('SIGHUP');
      const mainFile = join(dir, `server-${child.pid}.cpuprofile`);
      const deadline = Date.now() + 15_000;
      while (!existsSync(mainFile) && Date.now() < deadline) await sleep(100);
      expect(existsSync(mainFile)).toBe(true);
      const threads = readdirSync(dir).filter(
        (f) => f.startsWith(`server-${child.pid}-t`) && f.endsWith('.cpuprofile'),
      );
      expect(threads).toHaveLength(2);
      for (const f of threads) {
        const profile = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
          nodes: { callFrame: { functionName: string }; hitCount?: number }[];
        };
        const spun = profile.nodes
          .filter((n) => n.callFrame.functionName === 'spinInWorker')
          .reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
        expect(spun).toBeGreaterThan(0);
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
