/**
 * The whole comparison: for every node Podscope observes that the API server also knows (a node
 * the API server does not have is not part of that cluster, so nothing on it can drift), compare
 * the node, find missing and orphaned pods, and compare each joined pod. Then classify each
 * finding as still propagating or drift.
 *
 * Pure: the caller gives `now` and, for live use, when each disagreement was first seen
 * (DriftTracker keeps that between calls).
 */
import type { NodeView } from '../timeline/state';
import { indexApi, type ApiIndex, type ApiObjects } from './api';
import type { CompareContext, Finding } from './finding';
import { isOrphan, missingPods, orphanFinding } from './membership';
import { compareNode } from './node';
import { driftOptions, type DriftOptions } from './options';
import { comparePod } from './pod';
import { DRIFT_KINDS, driftKey, type ClusterDrift, type Drift } from './types';

export interface ClusterFindings {
  pods: Map<string, Finding[]>;
  nodes: Map<string, Finding[]>;
}

export function collectFindings(
  index: ApiIndex,
  nodes: Readonly<Record<string, NodeView>>,
  now: number,
  options: DriftOptions,
): ClusterFindings {
  const ctx: CompareContext = { now, options, index };
  const out: ClusterFindings = { pods: new Map(), nodes: new Map() };
  for (const [name, view] of Object.entries(nodes)) {
    const apiNode = index.nodeByName.get(name);
    if (!apiNode) continue;
    const nodeFindings = [
      ...compareNode(apiNode, index.leaseByNode.get(name), view, ctx),
      ...missingPods(view, ctx),
    ];
    if (nodeFindings.length > 0) out.nodes.set(name, nodeFindings);
    for (const [uid, pod] of Object.entries(view.pods)) {
      const apiPod = index.podByRuntimeUid.get(uid);
      const findings =
        apiPod === undefined || isOrphan(pod, apiPod)
          ? [orphanFinding(pod, apiPod, ctx)]
          : comparePod(apiPod, pod, ctx);
      if (findings.length > 0) out.pods.set(uid, findings);
    }
  }
  return out;
}

/**
 * A disagreement younger than its tolerance is still propagating. Its age runs from the runtime's
 * own evidence when there is some (the container exited at finishedAt), else from when it was
 * first seen. With neither (a one-shot snapshot) its age is unknown and it counts as drift.
 */
export function classify(f: Finding, now: number, firstSeen?: ReadonlyMap<string, number>): Drift {
  const { toleranceMs, ...rest } = f;
  const since = f.since ?? firstSeen?.get(driftKey(f));
  const status = since !== undefined && now - since < toleranceMs ? 'propagating' : 'drift';
  return { ...rest, ...(since !== undefined ? { since } : {}), status };
}

const kindRank = new Map(DRIFT_KINDS.map((k, i) => [k, i]));

function ordered(list: Drift[]): Drift[] {
  return list.sort(
    (a, b) =>
      (kindRank.get(a.kind) ?? 0) - (kindRank.get(b.kind) ?? 0) ||
      (a.pod ?? '').localeCompare(b.pod ?? '') ||
      a.field.localeCompare(b.field),
  );
}

export function classifyAll(
  findings: ClusterFindings,
  now: number,
  firstSeen?: ReadonlyMap<string, number>,
): ClusterDrift {
  const out: ClusterDrift = { pods: {}, nodes: {} };
  for (const [uid, fs] of findings.pods)
    out.pods[uid] = ordered(fs.map((f) => classify(f, now, firstSeen)));
  for (const [name, fs] of findings.nodes)
    out.nodes[name] = ordered(fs.map((f) => classify(f, now, firstSeen)));
  return out;
}

export interface DetectInput {
  api: ApiObjects;
  /** ClusterState.nodes: what Podscope derives from the runtimes. */
  nodes: Readonly<Record<string, NodeView>>;
  now: number;
  options?: Partial<DriftOptions>;
  /** driftKey → epoch ms first seen (DriftTracker); absent for a one-shot comparison. */
  firstSeen?: ReadonlyMap<string, number>;
}

export function detectClusterDrift(input: DetectInput): ClusterDrift {
  const findings = collectFindings(
    indexApi(input.api),
    input.nodes,
    input.now,
    driftOptions(input.options),
  );
  return classifyAll(findings, input.now, input.firstSeen);
}
