/**
 * A disagreement before it is classified: everything a Drift has except its status, plus how
 * long it may last as normal propagation. classify() turns findings into drifts.
 */
import type { ApiIndex } from './api';
import type { DriftOptions } from './options';
import type { Drift } from './types';

export interface Finding extends Omit<Drift, 'status'> {
  toleranceMs: number;
}

export interface CompareContext {
  now: number;
  options: DriftOptions;
  index: ApiIndex;
}
