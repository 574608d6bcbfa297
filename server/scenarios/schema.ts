/**
 * The scenario file format (FORMAT.md) as a zod schema: what a training scenario may say, checked
 * when the library loads, so a broken file fails loudly and early with the path of the bad field.
 */
import { z } from 'zod';
import { CONCEPTS, type ConceptId } from '@/lib/learn/concepts';
import { DRIFT_KINDS } from '@/lib/drift/types';

/** `500ms`, `10s`, `2m`, `1m30s`: durations in scenario time (the simulator's clock when sped up). */
const DURATION = /^(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m || text === '') return undefined;
  return Number(m[1] ?? 0) * 60_000 + Number(m[2] ?? 0) * 1000 + Number(m[3] ?? 0);
}

export const Duration = z.string().refine((s) => parseDuration(s) !== undefined, {
  message: 'expected a duration like 500ms, 10s, 2m or 1m30s',
});

/** A message id in the `learn` catalogue (messages/<locale>/learn.json), dot-separated. */
export const MessageId = z
  .string()
  .regex(
    /^[a-z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+$/,
    'expected a message id like scenarios.crashloop.title',
  );

/** A key naming one of the scenario's pods. */
export const PodRef = z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a pod key like "web"');

const DnsLabel = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
  .max(63);

const ContainerTemplate = z.looseObject({
  name: DnsLabel,
  image: z.string().min(1),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  restartPolicy: z.enum(['Always', 'OnFailure', 'Never']).optional(),
  imagePullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
});

/** A V1Pod as JSON: the fields the runner relies on are checked; any other pod field passes through. */
export const PodTemplate = z.looseObject({
  metadata: z.looseObject({
    name: DnsLabel,
    namespace: DnsLabel.optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
  spec: z.looseObject({
    restartPolicy: z.enum(['Always', 'OnFailure', 'Never']).optional(),
    terminationGracePeriodSeconds: z.number().int().min(0).optional(),
    initContainers: z.array(ContainerTemplate).optional(),
    containers: z.array(ContainerTemplate).min(1),
  }),
});

const ConditionStatus = z.enum(['True', 'False', 'Unknown']);
const Count = z.union([
  z.number().int().min(0),
  z.strictObject({ atLeast: z.number().int().min(0) }),
]);

/** What one container's status should show. */
export const ContainerExpectation = z.strictObject({
  pod: PodRef,
  container: DnsLabel,
  /** The current state. */
  state: z.enum(['waiting', 'running', 'terminated']).optional(),
  /** Reason of the current state (waiting or terminated), as kubectl prints it. */
  reason: z.string().optional(),
  /** Exit code of the current (terminated) state. */
  exitCode: z.number().int().optional(),
  restartCount: Count.optional(),
  /** lastState.terminated. */
  lastState: z
    .strictObject({ reason: z.string().optional(), exitCode: z.number().int().optional() })
    .optional(),
  ready: z.boolean().optional(),
  started: z.boolean().optional(),
});

/**
 * A disagreement between the scenario's API server and the runtime (lib/drift) that has lasted
 * past its propagation tolerance (status `drift`), of this kind. Needs `apiServer: true`.
 */
const DriftKind = z.enum(DRIFT_KINDS);

/** What a node condition should be (the scenario's node). */
export const NodeExpectation = z.strictObject({
  node: z.enum(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']),
  status: ConditionStatus,
  reason: z.string().optional(),
  /** Text the condition's message contains (`container runtime is down`, `PLEG is not healthy`). */
  messageContains: z.string().min(1).optional(),
  /** The node has a drift of this kind (its Lease, its conditions, pods the runtime lacks). */
  drift: DriftKind.optional(),
});

/** What a pod should show: phase, a condition, deletion, eviction, or being gone. */
export const PodExpectation = z.strictObject({
  pod: PodRef,
  phase: z.enum(['Pending', 'Running', 'Succeeded', 'Failed']).optional(),
  /** The pod's status.reason (`Evicted`, `DeadlineExceeded`). */
  statusReason: z.string().min(1).optional(),
  condition: z
    .enum(['PodScheduled', 'PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready'])
    .optional(),
  status: ConditionStatus.optional(),
  reason: z.string().optional(),
  /** Graceful deletion under way (deletionTimestamp set). */
  deleting: z.boolean().optional(),
  /** No longer on the node at all. */
  gone: z.literal(true).optional(),
  /** The node is not Ready: eviction is scheduled, or its toleration has run out. */
  eviction: z.enum(['scheduled', 'due']).optional(),
  /** The pod (or one of its containers) has a drift of this kind. */
  drift: DriftKind.optional(),
  /**
   * The API server's copy agrees with the runtime: no difference at all, not even one still
   * propagating (the kubelet has posted what the node shows). Needs `apiServer: true`.
   */
  synced: z.literal(true).optional(),
});

export const Expectation = z.union([ContainerExpectation, NodeExpectation, PodExpectation]);

const StepBase = {
  /** Narration shown with this step (a `learn` message id). */
  say: MessageId.optional(),
  /** What must be observed after the step (all at once), within `timeout`. */
  expect: z.array(Expectation).optional(),
  timeout: Duration.optional(),
};

export const FaultKind = z.enum([
  /** Status reports RuntimeReady=false. */
  'runtimeNotReady',
  /** Status reports NetworkReady=false (NetworkPluginNotReady). */
  'networkNotReady',
  /** The runtime's socket accepts connections and never answers: relists time out. */
  'stopAnswering',
  /** The runtime's socket goes away (containers keep running, as with containerd). */
  'runtimeDown',
  /**
   * The kubelet is cut off from the API server (a network partition): no status or Lease gets
   * out, no deletion gets in; the runtime and the containers are fine.
   */
  'partition',
  /**
   * Something outside the pods (a host daemon, the kernel) takes 4 GiB more of the node's memory:
   * memory.available falls under the kubelet's hard threshold on the simulator's 8 GiB node.
   */
  'memoryPressure',
  /** Everything back to normal. */
  'recover',
]);

export const Step = z.discriminatedUnion('do', [
  z.strictObject({ do: z.literal('apply'), pod: PodRef, ...StepBase }),
  z.strictObject({
    do: z.literal('wait'),
    /** Just let this much scenario time pass (then check `expect`, if any). */
    for: Duration.optional(),
    ...StepBase,
  }),
  z.strictObject({
    do: z.literal('delete'),
    pod: PodRef,
    gracePeriodSeconds: z.number().int().min(0).optional(),
    ...StepBase,
  }),
  /**
   * `kubectl delete pod --force --grace-period=0`: the API server removes the pod at once,
   * without waiting for the kubelet; the kubelet stops it when it hears (needs `apiServer`).
   */
  z.strictObject({ do: z.literal('forceDelete'), pod: PodRef, ...StepBase }),
  z.strictObject({ do: z.literal('fault'), fault: FaultKind, ...StepBase }),
  z.strictObject({
    do: z.literal('createConfigMap'),
    namespace: DnsLabel,
    name: DnsLabel,
    data: z.record(z.string(), z.string()),
    ...StepBase,
  }),
  z.strictObject({ do: z.literal('annotate'), say: MessageId }),
]);

export const Scenario = z
  .strictObject({
    /** Stable id: the CLI name, the file name, the message key. */
    id: z.string().regex(/^[a-z][a-z0-9-]*$/),
    title: MessageId,
    summary: MessageId,
    level: z.enum(['beginner', 'intermediate', 'advanced']),
    /** Kubernetes terms this scenario teaches, exactly as kubectl prints them. */
    topics: z.array(z.string()).default([]),
    /** Concepts of concepts.ts this scenario teaches (what /learn groups by). */
    concepts: z.array(z.enum(Object.keys(CONCEPTS) as [ConceptId, ...ConceptId[]])).min(1),
    /** Suggested driver settings (the runner's caller decides). */
    driver: z.strictObject({ backoffScale: z.number().positive().optional() }).optional(),
    /**
     * Run an API server beside the node (apiserver.ts): what the kubelet posts and what the
     * controllers do, compared with the runtime (lib/drift). Drift expectations and
     * `forceDelete` need it.
     */
    apiServer: z.boolean().default(false),
    pods: z.record(PodRef, PodTemplate),
    steps: z.array(Step).min(1),
  })
  .superRefine((s, ctx) => {
    const known = new Set(Object.keys(s.pods));
    const check = (ref: string, path: (string | number)[]) => {
      if (!known.has(ref)) ctx.addIssue({ code: 'custom', message: `unknown pod "${ref}"`, path });
    };
    s.steps.forEach((step, i) => {
      if ('pod' in step) check(step.pod, ['steps', i, 'pod']);
      if (step.do !== 'annotate') {
        step.expect?.forEach((e, j) => {
          if ('pod' in e) check(e.pod, ['steps', i, 'expect', j, 'pod']);
        });
      }
      const drift =
        step.do !== 'annotate' &&
        step.expect?.some(
          (e) => ('drift' in e && e.drift !== undefined) || ('synced' in e && e.synced === true),
        );
      if (!s.apiServer && (step.do === 'forceDelete' || drift)) {
        ctx.addIssue({
          code: 'custom',
          message: `${step.do === 'forceDelete' ? 'forceDelete' : 'a drift expectation'} needs "apiServer": true`,
          path: ['steps', i],
        });
      }
      if (step.do === 'wait' && !step.for && !step.expect?.length) {
        ctx.addIssue({
          code: 'custom',
          message: 'a wait step needs "for" or "expect"',
          path: ['steps', i],
        });
      }
    });
  });

export type ScenarioInput = z.input<typeof Scenario>;
export type Scenario = z.output<typeof Scenario>;
export type Step = z.output<typeof Step>;
export type Expectation = z.output<typeof Expectation>;
export type ContainerExpectation = z.output<typeof ContainerExpectation>;
export type NodeExpectation = z.output<typeof NodeExpectation>;
export type PodExpectation = z.output<typeof PodExpectation>;
export type PodTemplate = z.output<typeof PodTemplate>;
export type FaultKind = z.output<typeof FaultKind>;

/** True when the scenario injects faults, which only the simulator can do. */
export function needsSimulator(s: Scenario): boolean {
  return s.steps.some((step) => step.do === 'fault');
}

/** Every `learn` message id a scenario uses. */
export function messageIds(s: Scenario): string[] {
  const ids = [s.title, s.summary];
  for (const step of s.steps) if (step.say) ids.push(step.say);
  return ids;
}
