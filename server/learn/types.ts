/**
 * What a walkthrough replays: a recorded run of one scenario (initial state + the events after
 * it) and, per step, the moment its expected outcome held, the entities it is about, and the
 * question asked there with its answer taken from the recording. The browser imports these types
 * only (through the tRPC router's outputs).
 */
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import type { ConceptGroup } from '@/lib/learn/concepts';
import type { Expectation, Scenario, Step } from '@/server/scenarios/schema';

/** The drawn layers, as the console names them (`data-layer`). */
export type EntityLayer = 'node' | 'pod' | 'container';

/**
 * Which of the answer's explanations (its `why`s in the replayed state) the question is about:
 * a container's current state or its previous run (lastState), a pod's phase, a condition (of
 * the pod, or of the node for a node), the eviction the node's taint schedules, or where the API
 * server disagrees with the runtime about the entity (its drift, lib/drift).
 */
export type Focus = 'state' | 'lastRun' | 'phase' | 'eviction' | 'drift' | `condition:${string}`;

/** Click the entity (or one of the entities) the prompt describes. */
export interface EntityQuestion {
  kind: 'entity';
  /** Message id in the `learn` catalogue. */
  prompt: string;
  /** Message id: a nudge after a wrong answer. */
  hint: string;
  /** The layer of the right answers. */
  layer: EntityLayer;
  /** data-ids of every entity that answers the question at the step's moment. */
  answers: string[];
  /** What the explanation shown after the answer should cover, most telling first. */
  focus: Focus[];
}

/** Click the state the entity is in, in its state machine. */
export interface StateQuestion {
  kind: 'state';
  prompt: string;
  hint: string;
  /** Which machine: the container state, the pod phase, or the node's Ready condition. */
  machine: EntityLayer;
  /** data-id of the entity asked about. */
  entity: string;
  /** The machine's state id at the step's moment (`waiting`, `Running`, `Unknown` …). */
  answer: string;
  focus: Focus[];
}

export type Question = EntityQuestion | StateQuestion;

export interface RecordedStep {
  index: number;
  do: Step['do'];
  /** Short stable name of the step: the last part of its narration id (`killed`), else its index. */
  key: string;
  /** Narration: a `learn` message id. */
  say?: string;
  /** When the step's action began (scenario time, epoch ms). */
  startedAt: number;
  /** The moment its expectations all held (for a step without any: when it ended). */
  t: number;
  expectations: Expectation[];
  /** data-ids of what the step is about, at `t`. */
  entities: string[];
  question?: Question;
}

export interface Recording {
  /** Bumped when the recorder's output changes meaning (invalidates cached recordings). */
  version: number;
  scenario: string;
  title: string;
  summary: string;
  level: Scenario['level'];
  topics: string[];
  /** The simulated node the scenario ran on. */
  node: string;
  /** Scenario time when the run started and when its last step ended. */
  start: number;
  end: number;
  /** The state before the first step (the node up, nothing on it). */
  initial: ClusterState;
  /** Every recorded event after `initial`, ascending seq. */
  events: TimelineEvent[];
  steps: RecordedStep[];
  /** Pod key of the scenario → its uid in this recording. */
  pods: Record<string, string>;
}

/** One card of the /learn list. */
export interface WalkthroughSummary {
  id: string;
  title: string;
  summary: string;
  level: Scenario['level'];
  topics: string[];
  /** The /learn group it is listed under (the group of its first concept, lib/learn/concepts.ts). */
  group: ConceptGroup;
  /** Steps a learner goes through (every step of the scenario). */
  steps: number;
  /** Steps with a question. */
  questions: number;
}
