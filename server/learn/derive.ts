/**
 * Reading a recording the way a walkthrough shows it: the moment each step's expectations first
 * hold on the replayed state, what the step is about, and each question's answers — all through
 * the scenario runner's own pure check(), applied to replayed state (so the walkthrough can never
 * claim something the recording does not show).
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import { reduce } from '@/lib/timeline/reducer';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState, PodView } from '@/lib/timeline/state';
import { check, findPod, type EvalContext } from '@/server/scenarios/evaluate';
import type { Expectation, Scenario, Step } from '@/server/scenarios/schema';
import { hintId, promptId, type QuestionSpec } from './questions';
import type { EntityLayer, Focus, Question } from './types';

/** A moment of the replay: the state after every event observed at or before `t`. */
export interface Moment {
  t: number;
  state: ClusterState;
}

/**
 * Every distinct moment of a recording, in time order: the initial state, then the state after
 * each group of events with the same time (what a cursor at that time shows).
 */
export function moments(initial: ClusterState, events: readonly TimelineEvent[]): Moment[] {
  const out: Moment[] = [{ t: initial.t, state: initial }];
  let state = initial;
  for (const [i, e] of events.entries()) {
    state = reduce(state, e);
    const next = events[i + 1];
    // The cursor's notion of time is the running maximum (the store's "timeline time"); events at
    // the very time of the last moment (the initial one, say) replace it: one moment per time.
    if (next === undefined || next.t > state.t) {
      if (out.at(-1)?.t === state.t) out[out.length - 1] = { t: state.t, state };
      else out.push({ t: state.t, state });
    }
  }
  return out;
}

/** The replayed moment a cursor at `t` shows. */
export function momentAt(ms: readonly Moment[], t: number): Moment | undefined {
  let found: Moment | undefined;
  for (const m of ms) {
    if (m.t > t) break;
    found = m;
  }
  return found === undefined ? undefined : { t, state: found.state };
}

/** The evaluation context for a scenario's pod keys at one moment. */
export function contextAt(scenario: Scenario, node: string, m: Moment): EvalContext {
  return {
    state: m.state,
    node,
    now: m.t,
    podName: (ref) => {
      const meta = scenario.pods[ref]?.metadata;
      return meta ? { namespace: meta.namespace ?? 'default', name: meta.name } : undefined;
    },
  };
}

export function expectationsOf(step: Step): Expectation[] {
  return step.do === 'annotate' ? [] : (step.expect ?? []);
}

export function holds(ctx: EvalContext, expectations: readonly Expectation[]): boolean {
  return expectations.every((e) => check(ctx, e).ok);
}

/**
 * The first moment at or after `from` (index into `ms`) where every expectation holds, as
 * `{ t, state }`. Candidates are the moments where something was recorded, plus `extra` times
 * (when the runner saw the outcome) and the moments evictions fall due: an expectation about time
 * alone ("eviction due") becomes true with no event at all.
 */
export function firstMomentHolding(
  scenario: Scenario,
  node: string,
  ms: readonly Moment[],
  from: number,
  expectations: readonly Expectation[],
  extra: readonly number[] = [],
): Moment | undefined {
  const floor = ms[from]?.t ?? -Infinity;
  const times = new Set<number>();
  for (let i = from; i < ms.length; i++) {
    const m = ms[i];
    if (!m) continue;
    times.add(m.t);
    for (const pod of Object.values(m.state.nodes[node]?.pods ?? {}))
      if (pod.evictionDueAt !== undefined) times.add(pod.evictionDueAt);
  }
  for (const t of extra) times.add(t);
  let i = from;
  for (const t of [...times].filter((x) => x >= floor).sort((a, b) => a - b)) {
    while ((ms[i + 1]?.t ?? Infinity) <= t) i++;
    const m = ms[i];
    if (!m) continue;
    const at = { t, state: m.state };
    if (holds(contextAt(scenario, node, at), expectations)) return at;
  }
  return undefined;
}

/** The uid a pod key had in the recording (the newest moment that shows it). */
export function findPodUid(
  scenario: Scenario,
  node: string,
  ms: readonly Moment[],
  ref: string,
): string | undefined {
  for (let i = ms.length - 1; i >= 0; i--) {
    const m = ms[i];
    const pod = m ? findPod(contextAt(scenario, node, m), ref) : undefined;
    if (pod) return pod.uid;
  }
  return undefined;
}

/** The step's key: the last part of its narration id (`scenarios.oomkilled.steps.killed` → `killed`). */
export function stepKey(step: Step, index: number): string {
  return step.say?.split('.').pop() ?? String(index);
}

const uniq = (ids: (string | undefined)[]): string[] => [
  ...new Set(ids.filter((x): x is string => x !== undefined)),
];

/** The data-id an expectation names at this moment (undefined when its pod is not there). */
export function expectationEntity(ctx: EvalContext, e: Expectation): string | undefined {
  if ('node' in e) return ctx.node;
  const pod = findPod(ctx, e.pod);
  if (!pod) return undefined;
  return 'container' in e ? `${pod.uid}/${e.container}` : pod.uid;
}

/** What a step is about: the entities its expectations name, and the pod it applies or deletes. */
export function stepEntities(ctx: EvalContext, step: Step): string[] {
  const target =
    step.do === 'apply' || step.do === 'delete' ? findPod(ctx, step.pod)?.uid : undefined;
  return uniq([...expectationsOf(step).map((e) => expectationEntity(ctx, e)), target]);
}

export function layerOf(e: Expectation): EntityLayer {
  if ('node' in e) return 'node';
  return 'container' in e ? 'container' : 'pod';
}

function statusesOf(pod: PodView): V1ContainerStatus[] {
  return [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? [])];
}

export function containerStateName(s: V1ContainerStatus | undefined): string {
  if (s?.state?.running) return 'running';
  if (s?.state?.terminated) return 'terminated';
  return 'waiting';
}

/** A pod key no scenario can use (keys start with a letter): names the candidate under test. */
const CANDIDATE = '0candidate';

/**
 * Every entity on the node that satisfies `e` at this moment, as if `e` had named it: the right
 * answers to "click the one that …".
 */
export function matchingEntities(ctx: EvalContext, e: Expectation): string[] {
  const node = ctx.state.nodes[ctx.node];
  if (!node) return [];
  if ('node' in e) return check(ctx, e).ok ? [ctx.node] : [];
  if ('gone' in e && e.gone) return [];
  const out: string[] = [];
  for (const pod of Object.values(node.pods)) {
    const aimed: EvalContext = {
      ...ctx,
      podName: (ref) =>
        ref === CANDIDATE ? { namespace: pod.namespace, name: pod.name } : ctx.podName(ref),
    };
    if ('container' in e) {
      for (const s of statusesOf(pod)) {
        if (check(aimed, { ...e, pod: CANDIDATE, container: s.name }).ok)
          out.push(`${pod.uid}/${s.name}`);
      }
    } else if (check(aimed, { ...e, pod: CANDIDATE }).ok) out.push(pod.uid);
  }
  return out.sort();
}

/** The state an entity is in, as its machine names it (container state, pod phase, node Ready). */
export function machineState(
  ctx: EvalContext,
  machine: EntityLayer,
  id: string,
): string | undefined {
  const node = ctx.state.nodes[ctx.node];
  if (!node) return undefined;
  if (machine === 'node') return node.conditions.find((c) => c.type === 'Ready')?.status;
  const slash = id.indexOf('/');
  const pod = node.pods[slash < 0 ? id : id.slice(0, slash)];
  if (!pod) return undefined;
  if (machine === 'pod') return pod.status.phase;
  const name = id.slice(slash + 1);
  return containerStateName(statusesOf(pod).find((s) => s.name === name));
}

/** What an expectation is about, as the explanations to show for its entity. */
export function focusOf(e: Expectation): Focus[] {
  const drift: Focus[] = 'drift' in e && e.drift !== undefined ? ['drift'] : [];
  if ('node' in e) return [...drift, `condition:${e.node}`];
  if (drift.length > 0 && !('container' in e)) return drift;
  if ('container' in e) return e.lastState && !e.state ? ['lastRun', 'state'] : ['state'];
  const out: Focus[] = [];
  if (e.eviction) out.push('eviction');
  if (e.condition) out.push(`condition:${e.condition}`);
  if (e.phase || out.length === 0) out.push('phase');
  return out;
}

export class QuestionError extends Error {
  override name = 'QuestionError';
}

/** The question a spec asks at this moment, with its answers; throws when the recording has none. */
export function deriveQuestion(
  scenario: Scenario,
  ctx: EvalContext,
  step: Step,
  key: string,
  spec: QuestionSpec,
): Question {
  const where = `scenario ${scenario.id}, step ${key}`;
  const e = expectationsOf(step)[spec.expectation];
  if (!e)
    throw new QuestionError(
      `${where}: the question refers to expectation ${spec.expectation}, which the step does not have`,
    );
  const texts = { prompt: promptId(scenario.id, key), hint: hintId(scenario.id, key) };
  if (spec.kind === 'entity') {
    const answers = matchingEntities(ctx, e);
    if (answers.length === 0)
      throw new QuestionError(
        `${where}: no entity satisfies expectation ${spec.expectation} at the step's moment`,
      );
    return { kind: 'entity', ...texts, layer: layerOf(e), answers, focus: focusOf(e) };
  }
  const own = layerOf(e);
  const machine = spec.machine ?? own;
  const named = expectationEntity(ctx, e);
  if (!named)
    throw new QuestionError(
      `${where}: the entity of expectation ${spec.expectation} is not there at the step's moment`,
    );
  // Asking for the pod's phase about a container expectation: the container's pod.
  const entity =
    machine === 'pod' && own === 'container'
      ? (named.split('/')[0] ?? named)
      : machine === 'node'
        ? ctx.node
        : named;
  const answer = machineState(ctx, machine, entity);
  if (!answer)
    throw new QuestionError(`${where}: ${entity} has no ${machine} state at the step's moment`);
  // A container's state reads better next to how its previous run ended, when it had one.
  const focus: Focus[] =
    machine === 'node' ? ['condition:Ready'] : machine === 'pod' ? ['phase'] : ['state', 'lastRun'];
  return { kind: 'state', ...texts, machine, entity, answer, focus };
}
