import { describe, expect, it } from 'vitest';
import { ManualClock } from '@/server/driver/clock';
import { Driver } from '@/server/driver/driver';
import { FakeRuntime, type Behaviour } from '@/server/driver/testing/fake-runtime';
import { advance } from '@/server/driver/testing/step';
import { findScenario, parseScenario } from './library';
import { relistObserver } from './relist-observer';
import { runScenario, ScenarioError, type ScenarioResult, type SimControl } from './runner';
import type { Scenario } from './schema';

/** The fake runtime does not interpret commands: each test says how its containers behave. */
async function run(
  scenario: Scenario,
  behaviours: Record<string, Behaviour>,
  extra: { simControl?: SimControl; keep?: boolean } = {},
): Promise<{ result: ScenarioResult; runtime: FakeRuntime }> {
  const clock = new ManualClock();
  const runtime = new FakeRuntime(clock);
  runtime.behaviourFor = (spec) => behaviours[spec.name] ?? {};
  runtime.execResults = (cmd) => {
    const sleep = /sleep (\d+)/.exec(cmd.join(' '));
    return { exitCode: 0, ...(sleep ? { sleepMs: Number(sleep[1]) * 1000 } : {}) };
  };
  const driver = new Driver({ client: runtime, node: 'node-a', clock, log: () => undefined });
  let result: ScenarioResult | undefined;
  let failure: Error | undefined;
  runScenario(scenario, {
    driver,
    clock,
    observe: relistObserver({ runtime, node: 'node-a', hints: driver.hints, clock }),
    ...extra,
  }).then(
    (r) => (result = r),
    (err: unknown) => (failure = err instanceof Error ? err : new Error(String(err))),
  );
  const start = clock.now();
  while (!result && failure === undefined) {
    await advance(clock, driver, 250);
    if (clock.now() - start > 20 * 60_000)
      throw new Error('scenario did not finish in 20 minutes of scenario time');
  }
  await driver.stop();
  if (failure !== undefined) throw failure;
  if (!result) throw new Error('no result');
  return { result, runtime };
}

function scenario(id: string): Scenario {
  const s = findScenario(id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
}

describe('runScenario on an in-memory runtime', () => {
  it('runs crashloop to every expected outcome', async () => {
    const { result } = await run(scenario('crashloop'), {
      api: { exitAfterMs: 5_000, exitCode: 1 },
    });
    expect(result.steps.map((s) => [s.index, s.status])).toEqual(
      result.steps.map((s) => [s.index, 'passed']),
    );
    expect(result.ok).toBe(true);
    expect(result.cleanup).toEqual([]);
  });

  it('runs config-error: the container starts once the ConfigMap exists', async () => {
    const { result } = await run(scenario('config-error'), {});
    expect(result.ok).toBe(true);
    const fix = result.steps.find((s) => s.do === 'createConfigMap');
    expect(fix?.checks.map((c) => c.observed)).toContain('running, restarts 0, ready');
  });

  it('runs job-succeeds and job-fails', async () => {
    expect(
      (await run(scenario('job-succeeds'), { report: { exitAfterMs: 10_000, exitCode: 0 } })).result
        .ok,
    ).toBe(true);
    expect(
      (await run(scenario('job-fails'), { import: { exitAfterMs: 8_000, exitCode: 2 } })).result.ok,
    ).toBe(true);
  });

  it('runs init-failure: Pending under Always, Failed under Never', async () => {
    const { result } = await run(scenario('init-failure'), {
      migrate: { exitAfterMs: 2_000, exitCode: 1 },
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('runs graceful-termination: preStop, SIGTERM, then SIGKILL at the end of the grace period', async () => {
    const { result, runtime } = await run(scenario('graceful-termination'), {
      nginx: { onTerm: 0 },
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(
      runtime.calls.filter((c) => c.startsWith('ExecSync') || c.startsWith('StopContainer')),
    ).toEqual([
      'ExecSync nginx sh -c sleep 5',
      'StopContainer legacy-agent timeout=15',
      'StopContainer nginx timeout=10',
    ]);
  });

  it('runs sidecar: the sidecar is stopped once the main container is done', async () => {
    const { result } = await run(scenario('sidecar'), {
      'fetch-input': { exitAfterMs: 5_000, exitCode: 0 },
      report: { exitAfterMs: 15_000, exitCode: 0 },
      'log-shipper': { onTerm: 0 },
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('reports the failed step with what it saw, skips the rest, and still cleans up', async () => {
    // The container never crashes, so "firstCrash" cannot be observed.
    const { result, runtime } = await run(scenario('crashloop'), {});
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual([
      'passed',
      'failed',
      'skipped',
      'skipped',
      'skipped',
    ]);
    const failed = result.steps[1];
    expect(failed?.checks[0]).toEqual({
      ok: false,
      expected: 'api/api: restarts ≥ 1, last Error exit 1',
      observed: 'running, restarts 0, ready',
    });
    expect(failed && (failed.endedAt ?? 0) - (failed.startedAt ?? 0)).toBe(30_000);
    expect(runtime.allSandboxes()).toEqual([]);
  });

  it('refuses a fault scenario without the simulator', async () => {
    await expect(run(scenario('node-lost'), {})).rejects.toThrow(ScenarioError);
  });

  it('drives the simulator through its fault controls and clears them afterwards', async () => {
    const calls: string[] = [];
    const simControl: SimControl = {
      setCondition: (type, c) => void calls.push(`${type}=${c.status}`),
      setListener: (mode) => {
        calls.push(`listener ${mode}`);
        return Promise.resolve();
      },
    };
    const faults = parseScenario(
      {
        ...scenario('runtime-not-ready'),
        steps: [
          { do: 'fault', fault: 'runtimeNotReady' },
          { do: 'fault', fault: 'networkNotReady' },
          { do: 'fault', fault: 'stopAnswering' },
          { do: 'fault', fault: 'runtimeDown' },
        ],
      },
      'faults',
    );
    const { result } = await run(faults, {}, { simControl });
    expect(result.ok).toBe(true);
    expect(calls).toEqual([
      'RuntimeReady=false',
      'NetworkReady=false',
      'listener hang',
      'listener down',
      // cleanup
      'RuntimeReady=true',
      'NetworkReady=true',
      'listener grpc',
    ]);
  });
});
