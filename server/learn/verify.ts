/**
 * Checks a recording against its scenario by replaying it, as the browser will: at every step's
 * moment the step's expectations hold (the runner's own check()), the step's entities exist, and
 * each question (and its answers) is what the step asks at that moment. Used by the tests and before a recording
 * read from disk is trusted.
 */
import type { Scenario } from '@/server/scenarios/schema';
import { check } from '@/server/scenarios/evaluate';
import { contextAt, deriveQuestion, momentAt, moments } from './derive';
import { questionSpec } from './questions';
import type { Question, Recording } from './types';

export interface VerifyProblem {
  step: string;
  problem: string;
}

export function verifyRecording(scenario: Scenario, r: Recording): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  if (r.scenario !== scenario.id)
    return [{ step: '-', problem: `recording of ${r.scenario}, not ${scenario.id}` }];
  if (r.steps.length !== scenario.steps.length) {
    problems.push({
      step: '-',
      problem: `${r.steps.length} recorded steps for ${scenario.steps.length} scenario steps`,
    });
  }
  for (let i = 1; i < r.events.length; i++) {
    if ((r.events[i]?.seq ?? 0) <= (r.events[i - 1]?.seq ?? 0)) {
      problems.push({ step: '-', problem: `event seqs not increasing at index ${i}` });
      break;
    }
  }
  const ms = moments(r.initial, r.events);
  let before = r.start;
  for (const step of r.steps) {
    const say = (problem: string) => problems.push({ step: step.key, problem });
    if (step.t < before) say(`moment ${step.t} is before the previous step's ${before}`);
    before = step.t;
    const m = momentAt(ms, step.t);
    if (!m) {
      say(`no replayed state at ${step.t}`);
      continue;
    }
    const ctx = contextAt(scenario, r.node, m);
    for (const e of step.expectations) {
      const c = check(ctx, e);
      if (!c.ok) say(`expected ${c.expected}, the replay shows ${c.observed}`);
    }
    for (const id of step.entities) {
      const [pod] = id.split('/');
      const exists =
        id === r.node ||
        (pod !== undefined &&
          r.node in m.state.nodes &&
          m.state.nodes[r.node]?.pods[pod] !== undefined);
      if (!exists) say(`entity ${id} is not in the replayed state`);
    }
    // The question must be exactly what the step asks at that moment, answers included.
    const spec = questionSpec(scenario.id, step.key);
    const scenarioStep = scenario.steps[step.index];
    if (!spec || !scenarioStep) {
      if (step.question) say('a question the scenario does not ask');
      continue;
    }
    let expected: Question | undefined;
    try {
      expected = deriveQuestion(scenario, ctx, scenarioStep, step.key, spec);
    } catch (err) {
      say(err instanceof Error ? err.message : String(err));
      continue;
    }
    const q = step.question;
    if (!q) say('the question is missing');
    else if (q.kind === 'entity' && expected.kind === 'entity') {
      const right = new Set(expected.answers);
      for (const a of q.answers) if (!right.has(a)) say(`answer ${a} is not what the replay shows`);
      if (q.answers.length !== right.size)
        say(`${q.answers.length} answers, the replay shows ${right.size}`);
    } else if (q.kind === 'state' && expected.kind === 'state') {
      if (q.entity !== expected.entity || q.answer !== expected.answer)
        say(
          `answer ${q.entity} ${q.answer}, the replay shows ${expected.entity} ${expected.answer}`,
        );
    } else say(`a ${q.kind} question where the step asks a ${expected.kind} question`);
    if (q && q.kind === expected.kind) {
      // Everything else (texts, layer or machine, what the explanation covers) must match too.
      const rest = (x: Question) => JSON.stringify({ ...x, answers: [], answer: '', entity: '' });
      if (rest(q) !== rest(expected)) say('the question is not the one the step asks');
    }
  }
  return problems;
}
