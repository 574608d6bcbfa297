/**
 * What the walkthroughs must teach: the concepts of ../shared/design/KUBELET-SEMANTICS.md and of
 * the source texts (../shared/seeds, 000 state machines and CRI events, 001 kubelet ↔ API server
 * consistency, 003 the pod lifecycle), each in one group for /learn. Every scenario declares the
 * concepts it teaches (`concepts` in its file); server/scenarios/concepts.test.ts fails when a concept here is
 * taught by no scenario — except those listed in NOT_YET_TAUGHT, which must be exactly the
 * uncovered ones (so covering one also means removing it from that list).
 */
export const CONCEPT_GROUPS = [
  'lifecycle',
  'restarts',
  'probes',
  'hooks',
  'node',
  'consistency',
] as const;
export type ConceptGroup = (typeof CONCEPT_GROUPS)[number];

export interface Concept {
  group: ConceptGroup;
  /** Where the concept comes from. */
  source: string;
}

export const CONCEPTS = {
  'phase-pending': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1; seed 003 §一' },
  'phase-running': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1; seed 003 §一' },
  'phase-succeeded': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1; seed 003 §一' },
  'phase-failed': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1; seed 003 §一' },
  'phase-unknown': {
    group: 'consistency',
    source: 'seed 003 §一 (getPhase never returns it, KUBELET-SEMANTICS §1)',
  },
  'container-states': {
    group: 'lifecycle',
    source: 'KUBELET-SEMANTICS §2; seed 000; seed 003 §二',
  },
  'init-containers': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1; seed 003' },
  sidecars: { group: 'lifecycle', source: 'KUBELET-SEMANTICS §1, §8' },
  'pod-conditions': { group: 'lifecycle', source: 'KUBELET-SEMANTICS §3; seed 003 §三' },
  'graceful-termination': {
    group: 'hooks',
    source: 'seed 003 (Endpoints, preStop, SIGTERM, SIGKILL)',
  },
  'image-pull-backoff': { group: 'restarts', source: 'KUBELET-SEMANTICS §2; seed 003' },
  'create-container-config-error': { group: 'restarts', source: 'KUBELET-SEMANTICS §2' },
  'start-error': {
    group: 'restarts',
    source: 'KUBELET-SEMANTICS §2 (StartError → RunContainerError)',
  },
  crashloopbackoff: { group: 'restarts', source: 'KUBELET-SEMANTICS §2, §8; seed 003' },
  oomkilled: { group: 'restarts', source: 'KUBELET-SEMANTICS §2; seed 003' },
  'restart-policy': { group: 'restarts', source: 'KUBELET-SEMANTICS §1, §8; seed 003' },
  'readiness-probe': { group: 'probes', source: 'seed 003 (probes); prober_manager.go' },
  'liveness-probe': { group: 'probes', source: 'seed 003 (probes)' },
  'startup-probe': { group: 'probes', source: 'seed 003 (probes)' },
  'post-start-hook': { group: 'hooks', source: 'seed 003 (postStart)' },
  'pre-stop-hook': { group: 'hooks', source: 'seed 003 (preStop)' },
  'runtime-not-ready': { group: 'node', source: 'KUBELET-SEMANTICS §4, §5; seed 000' },
  'network-not-ready': {
    group: 'node',
    source: 'seed 000 (NetworkReady); KUBELET-SEMANTICS §3 (PodReadyToStartContainers)',
  },
  'node-unreachable': { group: 'node', source: 'KUBELET-SEMANTICS §5; seed 001' },
  'pods-marked-not-ready': {
    group: 'node',
    source:
      'node_lifecycle_controller.go monitorNodeHealth/processPod → MarkPodsNotReady @ 003e86297d18; docs/kubelet-semantics.md §5',
  },
  'eviction-tolerations': { group: 'node', source: 'KUBELET-SEMANTICS §5; seed 001' },
  'memory-pressure-eviction': {
    group: 'node',
    source: 'seed 000 (MemoryPressure); kubelet eviction by QoS',
  },
  'pleg-unhealthy': {
    group: 'consistency',
    source: 'KUBELET-SEMANTICS §4; seed 001 (CRI timeouts)',
  },
  'stale-status': {
    group: 'consistency',
    source: 'seed 001 (consistency between kubelet and API server)',
  },
  'kubelet-silent': {
    group: 'consistency',
    source: 'seed 001 §4.3.1 (Node Lease); KUBELET-SEMANTICS §5 (Lease renewal, grace period)',
  },
  'orphan-pod': {
    group: 'consistency',
    source: 'seed 001 §4.3 (数据一致性: 孤儿 Pod)',
  },
} as const satisfies Record<string, Concept>;

export type ConceptId = keyof typeof CONCEPTS;

/** Concepts no walkthrough teaches yet (none: every concept above has its walkthrough). */
export const NOT_YET_TAUGHT: readonly ConceptId[] = [];
