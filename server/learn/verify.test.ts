/**
 * verifyRecording catches a recording that does not show what it claims, and the derivations it
 * rests on (moments, matching entities, machine states, step entities) read replayed state right.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findScenario } from '@/server/scenarios/library';
import type { Scenario } from '@/server/scenarios/schema';
import {
  contextAt,
  deriveQuestion,
  firstMomentHolding,
  focusOf,
  machineState,
  matchingEntities,
  momentAt,
  moments,
  QuestionError,
  stepEntities,
  stepKey,
} from './derive';
import { recordScenario } from './record';
import type { Recording } from './types';
import { verifyRecording } from './verify';

let s: Scenario;
let r: Recording;

beforeAll(async () => {
  const found = findScenario('graceful-termination');
  if (!found) throw new Error('no scenario graceful-termination');
  s = found;
  r = await recordScenario(s);
}, 60_000);

const step = (key: string) => {
  const x = r.steps.find((y) => y.key === key);
  if (!x) throw new Error(`no step ${key}`);
  return x;
};

describe('verifyRecording', () => {
  it('accepts the recording as made', () => {
    expect(verifyRecording(s, r)).toEqual([]);
  });

  it('reports a step whose moment is before its outcome', () => {
    const bad = structuredClone(r);
    const sigkill = bad.steps.find((x) => x.key === 'sigkill');
    if (!sigkill) throw new Error('no sigkill step');
    sigkill.t = step('sigterm').t;
    const problems = verifyRecording(s, bad);
    expect(problems.some((p) => p.step === 'sigkill' && p.problem.includes('legacy-agent'))).toBe(
      true,
    );
  });

  it('reports a wrong answer', () => {
    const bad = structuredClone(r);
    const q = bad.steps.find((x) => x.key === 'sigterm')?.question;
    if (q?.kind !== 'entity') throw new Error('expected an entity question');
    q.answers = [`${r.pods.web}/legacy-agent`];
    expect(verifyRecording(s, bad)).toEqual([
      {
        step: 'sigterm',
        problem: `answer ${r.pods.web}/legacy-agent is not what the replay shows`,
      },
    ]);
    const state = structuredClone(r);
    const sq = state.steps.find((x) => x.key === 'delete')?.question;
    if (sq?.kind !== 'state') throw new Error('expected a state question');
    sq.answer = 'Succeeded';
    expect(verifyRecording(s, state)[0]?.problem).toContain(
      `answer ${r.pods.web} Succeeded, the replay shows ${r.pods.web} Running`,
    );
  });

  it('reports a question that differs in anything else', () => {
    const bad = structuredClone(r);
    const q = bad.steps.find((x) => x.key === 'sigkill')?.question;
    if (q?.kind !== 'entity') throw new Error('expected an entity question');
    q.focus = ['phase'];
    expect(verifyRecording(s, bad)).toEqual([
      { step: 'sigkill', problem: 'the question is not the one the step asks' },
    ]);
  });

  it('reports a recording of another scenario, and missing steps', () => {
    expect(verifyRecording(s, { ...r, scenario: 'oomkilled' })[0]?.problem).toContain(
      'not graceful-termination',
    );
    expect(verifyRecording(s, { ...r, steps: r.steps.slice(1) })[0]?.problem).toContain(
      'recorded steps',
    );
  });
});

describe('derivations on replayed state', () => {
  it('moments are ascending, one per distinct time, starting with the initial state', () => {
    const ms = moments(r.initial, r.events);
    // The initial state, or what events at that very time made of it.
    expect(ms[0]?.t).toBe(r.initial.t);
    if ((r.events[0]?.t ?? Infinity) > r.initial.t) expect(ms[0]?.state).toBe(r.initial);
    for (let i = 1; i < ms.length; i++) expect(ms[i]?.t).toBeGreaterThan(ms[i - 1]?.t ?? Infinity);
    expect(ms.at(-1)?.state.seq).toBe(r.events.at(-1)?.seq);
    // A cursor between two moments shows the earlier one.
    const m = ms[3];
    const next = ms[4];
    if (!m || !next) throw new Error('too few moments');
    expect(momentAt(ms, (m.t + next.t) / 2)?.state).toBe(m.state);
    expect(momentAt(ms, r.initial.t - 1)).toBeUndefined();
  });

  it('matches every entity an expectation describes, not only the one it names', () => {
    const ms = moments(r.initial, r.events);
    const m = momentAt(ms, step('sigterm').t);
    if (!m) throw new Error('no moment');
    const ctx = contextAt(s, r.node, m);
    const uid = r.pods.web ?? '';
    // "terminated, Completed, exit 0" is nginx only; "running" is legacy-agent only.
    expect(
      matchingEntities(ctx, {
        pod: 'web',
        container: 'nginx',
        state: 'terminated',
        reason: 'Completed',
        exitCode: 0,
      }),
    ).toEqual([`${uid}/nginx`]);
    expect(matchingEntities(ctx, { pod: 'web', container: 'nginx', state: 'running' })).toEqual([
      `${uid}/legacy-agent`,
    ]);
    expect(matchingEntities(ctx, { pod: 'web', deleting: true })).toEqual([uid]);
    expect(matchingEntities(ctx, { pod: 'web', gone: true })).toEqual([]);
    expect(matchingEntities(ctx, { node: 'Ready', status: 'True' })).toEqual([r.node]);
    expect(matchingEntities(ctx, { node: 'Ready', status: 'False' })).toEqual([]);
    expect(machineState(ctx, 'container', `${uid}/nginx`)).toBe('terminated');
    expect(machineState(ctx, 'container', `${uid}/legacy-agent`)).toBe('running');
    expect(machineState(ctx, 'pod', uid)).toBe('Running');
    expect(machineState(ctx, 'node', r.node)).toBe('True');
    expect(machineState(ctx, 'pod', 'no-such-pod')).toBeUndefined();
  });

  it('says what each kind of expectation is about', () => {
    expect(focusOf({ pod: 'a', container: 'c', lastState: { reason: 'OOMKilled' } })).toEqual([
      'lastRun',
      'state',
    ]);
    expect(
      focusOf({ pod: 'a', container: 'c', state: 'waiting', lastState: { exitCode: 1 } }),
    ).toEqual(['state']);
    expect(focusOf({ pod: 'a', eviction: 'due' })).toEqual(['eviction']);
    expect(focusOf({ pod: 'a', condition: 'Ready', status: 'True' })).toEqual(['condition:Ready']);
    expect(focusOf({ pod: 'a', phase: 'Failed', condition: 'Ready' })).toEqual([
      'condition:Ready',
      'phase',
    ]);
    expect(focusOf({ pod: 'a', deleting: true })).toEqual(['phase']);
    expect(focusOf({ node: 'Ready', status: 'Unknown' })).toEqual(['condition:Ready']);
  });

  it('finds the first moment an outcome holds, and none when it never does', () => {
    const ms = moments(r.initial, r.events);
    const sigkill = s.steps[3];
    if (!sigkill || sigkill.do === 'annotate') throw new Error('unexpected scenario shape');
    const found = firstMomentHolding(s, r.node, ms, 0, sigkill.expect ?? []);
    expect(found?.t).toBe(step('sigkill').t);
    expect(
      firstMomentHolding(s, r.node, ms, 0, [{ pod: 'web', phase: 'Succeeded' }]),
    ).toBeUndefined();
  });

  it('names the entities of a step and derives its question, refusing one the step cannot ask', () => {
    const ms = moments(r.initial, r.events);
    const apply = s.steps[0];
    const m = momentAt(ms, step('apply').t);
    if (!apply || !m) throw new Error('unexpected scenario shape');
    const ctx = contextAt(s, r.node, m);
    const uid = r.pods.web ?? '';
    expect(stepKey(apply, 0)).toBe('apply');
    expect(stepEntities(ctx, apply).sort()).toEqual(
      [uid, `${uid}/legacy-agent`, `${uid}/nginx`].sort(),
    );
    expect(
      deriveQuestion(s, ctx, apply, 'apply', { kind: 'state', expectation: 0, machine: 'pod' }),
    ).toMatchObject({
      kind: 'state',
      machine: 'pod',
      entity: uid,
      answer: 'Running',
      prompt: 'scenarios.graceful-termination.questions.apply.prompt',
    });
    expect(() =>
      deriveQuestion(s, ctx, apply, 'apply', { kind: 'entity', expectation: 9 }),
    ).toThrow(QuestionError);
    // Nothing on the node is terminated at this moment: no answer, so no question.
    const sigterm = s.steps[2];
    if (!sigterm) throw new Error('unexpected scenario shape');
    expect(() =>
      deriveQuestion(s, ctx, sigterm, 'sigterm', { kind: 'entity', expectation: 0 }),
    ).toThrow(/no entity/);
  });
});
