/**
 * The questions of the walkthroughs, as data: per scenario and step (the step's key, the last
 * part of its narration id), what to ask. The answers are never written here: they are read from
 * the recording at the step's moment, through the step's own expectations (derive.ts), so a
 * question stays right when a scenario or the kubelet rules change.
 *
 * - `entity`: "click the entity that …" — the right answers are every entity that satisfies the
 *   step's expectation number `expectation` at that moment (the same check() the runner used,
 *   re-aimed at each candidate).
 * - `state`: "which state is it in?" — the entity of that expectation (or its pod, with
 *   `machine: 'pod'`), and the state it is in at that moment.
 *
 * Texts: `scenarios.<id>.questions.<step>.prompt` and `.hint` in messages/<locale>/learn.json.
 */
import type { EntityLayer } from './types';

export type QuestionSpec =
  | { kind: 'entity'; expectation: number }
  | { kind: 'state'; expectation: number; machine?: EntityLayer };

const entity = (expectation: number): QuestionSpec => ({ kind: 'entity', expectation });
const state = (expectation: number, machine?: EntityLayer): QuestionSpec =>
  machine ? { kind: 'state', expectation, machine } : { kind: 'state', expectation };

export const QUESTIONS: Readonly<Record<string, Readonly<Record<string, QuestionSpec>>>> = {
  crashloop: {
    apply: state(1),
    firstCrash: entity(0),
    backoff: state(1),
    growing: state(0),
  },
  'image-pull-backoff': {
    apply: state(1),
    backoff: state(0),
    retry: entity(0),
  },
  oomkilled: {
    apply: state(1),
    killed: entity(0),
    backoff: state(0, 'pod'),
  },
  'config-error': {
    apply: state(0),
    fix: state(1),
  },
  'start-error': {
    apply: state(0),
    backoff: state(0, 'pod'),
  },
  'job-succeeds': {
    apply: state(0),
    done: state(1),
  },
  'job-fails': {
    apply: state(0),
    failed: state(1),
  },
  'init-failure': {
    applyAlways: state(0),
    neverFailed: entity(0),
    alwaysRetries: entity(1),
    alwaysBackoff: state(1),
  },
  sidecar: {
    apply: state(2),
    initialized: entity(0),
    done: state(2),
  },
  'readiness-probe': {
    apply: state(1),
    ready: entity(0),
    unready: state(1),
  },
  'liveness-probe': {
    apply: state(0),
    killed: entity(0),
    backoff: state(0),
  },
  'startup-probe': {
    apply: state(0),
    started: entity(0),
    killed: entity(0),
  },
  'lifecycle-hooks': {
    hookFailed: entity(0),
    backoff: state(1),
    preStop: state(1),
    killed: entity(0),
  },
  'restart-policies': {
    exited: entity(1),
    steady: state(1),
  },
  'graceful-termination': {
    apply: state(2, 'pod'),
    delete: state(2),
    sigterm: entity(0),
    sigkill: entity(0),
  },
  'runtime-not-ready': {
    apply: state(2),
    notReady: state(0),
    recover: entity(1),
  },
  'cni-not-ready': {
    notReady: state(0),
    stuck: entity(0),
    hostNetwork: state(0),
    recover: state(1),
  },
  'runtime-hung': {
    apply: state(0),
    down: state(0),
    pleg: state(1),
    evicted: entity(1),
    back: state(0),
  },
  'memory-pressure': {
    pressure: state(1),
    evictBestEffort: entity(0),
    evictBurstable: state(2),
    relieved: state(1, 'pod'),
  },
  'partition-drift': {
    agree: state(0),
    silent: entity(0),
    stale: entity(0),
    terminating: state(2, 'pod'),
    orphan: entity(0),
    heard: entity(1),
  },
  'not-ready-vs-lost': {
    apply: state(2),
    notReady: entity(1),
    recover: state(0),
    lost: entity(1),
    back: entity(1),
  },
  'node-lost': {
    apply: state(0),
    silent: state(0),
    phaseUnknown: state(0, 'pod'),
    evictionDue: entity(0),
    back: entity(1),
  },
};

export function questionSpec(scenario: string, step: string): QuestionSpec | undefined {
  return QUESTIONS[scenario]?.[step];
}

export const promptId = (scenario: string, step: string): string =>
  `scenarios.${scenario}.questions.${step}.prompt`;
export const hintId = (scenario: string, step: string): string =>
  `scenarios.${scenario}.questions.${step}.hint`;
