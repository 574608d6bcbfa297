/**
 * Scenarios on real containerd 1.6 through the driver (`lab: true`), observed by the engine:
 * the same library files that run on the simulator must reach the same expected outcomes on the
 * real runtime with busybox — exit codes, OOMKilled, CrashLoopBackOff (back-off scaled to 0.2 so
 * it fits a test), graceful termination with preStop, SIGTERM and SIGKILL. Wall-clock time.
 * Skipped, with the reason printed, where the harness cannot run containerd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  skipContainerd,
  startContainerd,
  type ContainerdInstance,
} from '@/test/containerd/harness';
import { findScenario } from './library';
import { runScenario, type ScenarioResult } from './runner';
import { startSession } from './session';

const skip = skipContainerd('scenarios on real containerd');

function report(result: ScenarioResult): string {
  return result.steps
    .map(
      (s) =>
        `${s.index} ${s.do} ${s.status}${s.error ? ` (${s.error})` : ''}\n${s.checks
          .map((c) => `   ${c.ok ? '✓' : '✗'} ${c.expected} — saw ${c.observed}`)
          .join('\n')}`,
    )
    .join('\n');
}

describe.skipIf(skip)('scenarios on real containerd (lab)', () => {
  let ctrd: ContainerdInstance | undefined;

  beforeAll(async () => {
    ctrd = await startContainerd();
  }, 180_000);

  afterAll(async () => {
    await ctrd?.stop();
  }, 120_000);

  for (const id of [
    'job-succeeds',
    'job-fails',
    'crashloop',
    'oomkilled',
    'graceful-termination',
    'config-error',
    'init-failure',
    'sidecar',
    'image-pull-backoff',
    'start-error',
  ]) {
    it(`${id} reaches every expected outcome`, { timeout: 240_000 }, async () => {
      const scenario = findScenario(id);
      if (!scenario || !ctrd) throw new Error(`setup: ${id}`);
      const logs: string[] = [];
      const session = await startSession({
        cri: ctrd.endpoint,
        backoffScale: 0.2,
        logRoot: ctrd.paths.logs,
        criTimeoutMs: 30_000,
        log: (l) => logs.push(l),
      });
      try {
        const result = await runScenario(scenario, {
          driver: session.driver,
          clock: session.clock,
          observe: () => session.observe(),
        });
        expect(
          result.ok,
          `${report(result)}\n--- driver/engine ---\n${logs.slice(-20).join('\n')}\n--- containerd ---\n${ctrd.logTail(20)}`,
        ).toBe(true);
        expect(result.cleanup).toEqual([]);
        expect(session.driver.pods()).toEqual([]);
      } finally {
        await session.stop();
      }
    });
  }
});
