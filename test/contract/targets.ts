/**
 * The two runtimes a contract scenario runs against: Podscope's simulated node (server/sim) on a
 * real-time clock at speed 1 — so a grace period lasts as long on both — and a private real
 * containerd from the harness. Both are started and stopped here; every caller stops what it
 * started in afterAll, even when a scenario failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimNode } from '@/server/sim';
import { startContainerd } from '../containerd/harness';
import type { Target } from './scenario';

export async function startSimTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-contract-sim-'));
  const node = await startSimNode({
    name: 'contract-sim',
    socketPath: join(dir, 'sim.sock'),
    clock: { mode: 'real', speed: 1 },
    eventsMode: 'unimplemented',
  });
  return {
    name: 'sim',
    endpoint: node.endpoint,
    logRoot: join(dir, 'logs'),
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startContainerdTarget(): Promise<Target & { timings: string }> {
  const ctrd = await startContainerd();
  const t = ctrd.timings;
  return {
    name: 'containerd',
    endpoint: ctrd.endpoint,
    logRoot: ctrd.paths.logs,
    timings: `ready ${t.readyMs.toFixed(0)} ms, image import ${t.importMs.toFixed(0)} ms, total ${t.totalMs.toFixed(0)} ms`,
    stop: async () => {
      await ctrd.stop();
    },
  };
}
