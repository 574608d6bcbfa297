/**
 * Every scenario of the library, run headless on an embedded simulated node (real gRPC over a
 * unix socket, the simulator's clock sped up) through the driver, observed by the engine: each
 * step must reach its expected outcome.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadLibrary } from './library';
import { runScenario, type ScenarioResult } from './runner';
import { startSession, type ScenarioSession } from './session';

const SPEED = 20;
/**
 * Scenarios with an API server run at half the speed: the API server's writers, the driver and
 * the engine each run on the sped-up wall clock, and one real second of CPU starvation in the
 * full parallel suite is then ten scenario seconds, not twenty. (partition-drift once missed its
 * stale-status step here: its "in sync" step passed on a comparison older than the node's state,
 * so the partition froze a Pending copy — the runner now has the API server's writers catch up
 * before each look; see apiserver.test.ts.)
 */
const API_SERVER_SPEED = 10;

function report(result: ScenarioResult): string {
  return result.steps
    .map(
      (s) =>
        `${s.index} ${s.do} ${s.status}${s.error ? ` (${s.error})` : ''}\n${s.checks.map((c) => `   ${c.ok ? '✓' : '✗'} ${c.expected} — saw ${c.observed}`).join('\n')}`,
    )
    .join('\n');
}

describe('scenario library on the simulator', () => {
  let session: ScenarioSession | undefined;
  afterEach(async () => {
    await session?.stop();
    session = undefined;
  });

  for (const scenario of loadLibrary()) {
    it(`${scenario.id} reaches every expected outcome`, { timeout: 120_000 }, async () => {
      const logs: string[] = [];
      session = await startSession({
        speed: scenario.apiServer ? API_SERVER_SPEED : SPEED,
        backoffScale: scenario.driver?.backoffScale ?? 1,
        apiServer: scenario.apiServer,
        log: (l) => logs.push(l),
      });
      const result = await runScenario(scenario, {
        driver: session.driver,
        clock: session.clock,
        observe: () => session?.observe() ?? { seq: 0, t: 0, nodes: {} },
        ...(session.simControl ? { simControl: session.simControl } : {}),
        ...(session.api ? { api: session.api } : {}),
      });
      expect(result.ok, `${report(result)}\n--- log ---\n${logs.slice(-20).join('\n')}`).toBe(true);
      expect(result.cleanup).toEqual([]);
      // Cleanup removed every pod the scenario made.
      expect(session.driver.pods()).toEqual([]);
    });
  }
});
