/**
 * recordScenario: runs one scenario of the library on an in-process simulated node, through the
 * driver and the engine, on a manual clock (pump.ts), and returns what a walkthrough replays: the
 * initial state, every recorded event, and per step its moment, entities and question.
 *
 * Deterministic: the simulator and the driver's uids are seeded with the scenario id, the clock
 * starts at a fixed time and moves only between runtime calls. Times are virtual (scenario time).
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import { parseDuration, type Scenario } from '@/server/scenarios/schema';
import {
  DEFAULT_POLL_MS,
  DEFAULT_TIMEOUT_MS,
  runScenario,
  type ScenarioResult,
} from '@/server/scenarios/runner';
import { DEFAULT_MANUAL_START } from '@/server/sim';
import {
  contextAt,
  deriveQuestion,
  expectationsOf,
  findPodUid,
  firstMomentHolding,
  momentAt,
  moments,
  type Moment,
  stepEntities,
  stepKey,
} from './derive';
import { ScenarioApiServer } from '@/server/scenarios/apiserver';
import { pumpUntil } from './pump';
import { questionSpec } from './questions';
import { startRig } from './rig';
import type { RecordedStep, Recording } from './types';

/** Bump when a recording's content changes meaning: cached recordings of older versions are dropped. */
export const RECORDING_VERSION = 5;
/** Scenario time between a step's outcome and the next step's action (one poll of the runner). */
const SETTLE_MS = DEFAULT_POLL_MS;
export const RECORDING_NODE = 'worker-1';

export interface RecordOptions {
  /** Real-time budget of the whole run (ms). */
  maxRealMs?: number;
  log?: (line: string) => void;
}

export class RecordingError extends Error {
  override name = 'RecordingError';
}

function failureReport(result: ScenarioResult): string {
  const failed = result.steps.find((s) => s.status === 'failed');
  if (!failed) return 'no step failed';
  const checks = failed.checks
    .filter((c) => !c.ok)
    .map((c) => `${c.expected} — saw ${c.observed}`)
    .join('; ');
  return `step ${failed.index} (${failed.do}) failed${failed.error ? `: ${failed.error}` : ''}${checks ? `: ${checks}` : ''}`;
}

/** Scenario time a run may take at most: every step's timeout, plus the waits. */
function virtualBudget(s: Scenario): number {
  let ms = 60_000;
  for (const step of s.steps) {
    if (step.do === 'annotate') continue;
    ms += (step.timeout ? parseDuration(step.timeout) : undefined) ?? DEFAULT_TIMEOUT_MS;
    if (step.do === 'wait' && step.for) ms += parseDuration(step.for) ?? 0;
  }
  return ms;
}

export async function recordScenario(
  scenario: Scenario,
  options: RecordOptions = {},
): Promise<Recording> {
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    if (lines.length > 50) lines.shift();
    options.log?.(line);
  };
  // The API server exists before the rig (the engine reads its Lease); it gets the rig's parts once
  // they are up.
  let api: ScenarioApiServer | undefined;
  const rig = await startRig({
    seed: `learn/${scenario.id}`,
    node: RECORDING_NODE,
    backoffScale: scenario.driver?.backoffScale ?? 1,
    start: DEFAULT_MANUAL_START,
    log,
    ...(scenario.apiServer ? { kubeletPostedAt: (node: string) => api?.postedAt(node) } : {}),
  });
  try {
    if (scenario.apiServer) {
      api = new ScenarioApiServer({
        driver: rig.driver,
        clock: rig.driverClock,
        observe: () => rig.engine.snapshot(),
        record: (events) => rig.engine.record(events),
        log,
      });
      // Its first Lease and node status, before anything happens on the node.
      api.tick();
    }
    const initial = rig.engine.snapshot();
    const run = runScenario(scenario, {
      ...(api ? { api } : {}),
      driver: rig.driver,
      simControl: rig.simControl,
      clock: rig.driverClock,
      observe: () => rig.engine.snapshot(),
      // The walkthrough looks at the pods afterwards; the rig goes away with them.
      keep: true,
      // Each step at its own moment: the next one acts a poll after the last one's outcome.
      settleMs: SETTLE_MS,
    });
    const result = await pumpUntil(rig, run, {
      maxVirtualMs: virtualBudget(scenario),
      ...(api ? { afterTick: () => api?.tick() } : {}),
      ...(options.maxRealMs !== undefined ? { maxRealMs: options.maxRealMs } : {}),
    });
    if (!result.ok) {
      throw new RecordingError(
        `scenario ${scenario.id}: ${failureReport(result)}; log: ${lines.slice(-8).join(' | ')}`,
      );
    }
    const end = Math.max(...result.steps.map((s) => s.endedAt ?? 0));
    const events = rig.store
      .range({ limit: 50_000 })
      .filter((e) => e.seq > initial.seq && e.t <= end);
    return assemble(scenario, initial, events, result, end);
  } finally {
    api?.stop();
    await rig.stop();
  }
}

function assemble(
  scenario: Scenario,
  initial: Recording['initial'],
  events: TimelineEvent[],
  result: ScenarioResult,
  end: number,
): Recording {
  const ms = moments(initial, events);
  const steps: RecordedStep[] = [];
  let from = 0;
  let previous: RecordedStep | undefined;
  for (const [index, step] of scenario.steps.entries()) {
    const ran = result.steps[index];
    const key = stepKey(step, index);
    const startedAt = ran?.startedAt ?? previous?.t ?? initial.t;
    // The state when the step began is the last moment at or before it; earlier ones are past.
    while ((ms[from + 1]?.t ?? Infinity) <= startedAt) from++;
    const expectations = expectationsOf(step);
    let moment: Moment | undefined;
    if (expectations.length > 0) {
      const found = firstMomentHolding(scenario, RECORDING_NODE, ms, from, expectations, [
        Math.max(ran?.endedAt ?? startedAt, startedAt),
      ]);
      if (!found) {
        throw new RecordingError(
          `scenario ${scenario.id}, step ${key}: the replayed recording never shows the step's expected outcome`,
        );
      }
      moment = { t: Math.max(found.t, startedAt), state: found.state };
    } else {
      // A step without expectations ends when it ended (a wait) or at once (narration).
      const t = Math.min(Math.max(ran?.endedAt ?? startedAt, startedAt), end);
      moment = momentAt(ms, t);
    }
    if (!moment)
      throw new RecordingError(`scenario ${scenario.id}, step ${key}: no moment to show`);
    const t = moment.t;
    const ctx = contextAt(scenario, RECORDING_NODE, moment);
    const spec = questionSpec(scenario.id, key);
    const question = spec ? deriveQuestion(scenario, ctx, step, key, spec) : undefined;
    // What the step is about includes what its question asks about.
    const entities = [
      ...new Set([
        ...stepEntities(ctx, step),
        ...(question?.kind === 'state' && question.machine !== 'node' ? [question.entity] : []),
      ]),
    ];
    const recorded: RecordedStep = {
      index,
      do: step.do,
      key,
      ...(step.say ? { say: step.say } : {}),
      startedAt,
      t,
      expectations,
      // Narration looks back at what the step before it was about.
      entities: step.do === 'annotate' && previous ? previous.entities : entities,
      ...(question ? { question } : {}),
    };
    steps.push(recorded);
    previous = recorded;
    while ((ms[from + 1]?.t ?? Infinity) <= t) from++;
  }
  const pods: Record<string, string> = {};
  for (const ref of Object.keys(scenario.pods)) {
    const uid = findPodUid(scenario, RECORDING_NODE, ms, ref);
    if (uid) pods[ref] = uid;
  }
  return {
    version: RECORDING_VERSION,
    scenario: scenario.id,
    title: scenario.title,
    summary: scenario.summary,
    level: scenario.level,
    topics: scenario.topics,
    node: RECORDING_NODE,
    start: initial.t,
    end,
    initial,
    events,
    steps,
    pods,
  };
}
