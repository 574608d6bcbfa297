/**
 * Remembers when each disagreement was first seen, across comparisons, so one that has no
 * timestamp of its own (a condition, a phase) still ages from propagating into drift. A
 * disagreement that resolves is forgotten; if it comes back it starts young again.
 */
import { indexApi, type ApiObjects } from './api';
import { classifyAll, collectFindings } from './detect';
import { driftOptions, type DriftOptions } from './options';
import { driftKey, type ClusterDrift } from './types';

export class DriftTracker {
  private firstSeen = new Map<string, number>();
  private readonly options: DriftOptions;

  constructor(options?: Partial<DriftOptions>) {
    this.options = driftOptions(options);
  }

  detect(
    api: ApiObjects,
    nodes: Parameters<typeof collectFindings>[1],
    now: number,
    overrides?: Partial<DriftOptions>,
  ): ClusterDrift {
    const options = overrides ? { ...this.options, ...overrides } : this.options;
    const findings = collectFindings(indexApi(api), nodes, now, options);
    const seen = new Map<string, number>();
    for (const list of [...findings.pods.values(), ...findings.nodes.values()]) {
      for (const f of list) {
        const key = driftKey(f);
        seen.set(key, this.firstSeen.get(key) ?? now);
      }
    }
    this.firstSeen = seen;
    return classifyAll(findings, now, seen);
  }

  /** How many disagreements are being remembered (for tests and metrics). */
  get size(): number {
    return this.firstSeen.size;
  }
}
