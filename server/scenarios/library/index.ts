/**
 * The scenario library: one JSON file per scenario, in the order `podscope scenario list` shows
 * them (easiest first). Static imports keep the files in any bundle; each is validated by the
 * schema when the library is first read.
 */
import cniNotReady from './cni-not-ready.json';
import configError from './config-error.json';
import crashloop from './crashloop.json';
import gracefulTermination from './graceful-termination.json';
import imagePullBackoff from './image-pull-backoff.json';
import initFailure from './init-failure.json';
import jobFails from './job-fails.json';
import jobSucceeds from './job-succeeds.json';
import lifecycleHooks from './lifecycle-hooks.json';
import livenessProbe from './liveness-probe.json';
import memoryPressure from './memory-pressure.json';
import nodeLost from './node-lost.json';
import notReadyVsLost from './not-ready-vs-lost.json';
import oomkilled from './oomkilled.json';
import partitionDrift from './partition-drift.json';
import readinessProbe from './readiness-probe.json';
import restartPolicies from './restart-policies.json';
import runtimeHung from './runtime-hung.json';
import runtimeNotReady from './runtime-not-ready.json';
import sidecar from './sidecar.json';
import startError from './start-error.json';
import startupProbe from './startup-probe.json';

/** File name (without .json) → raw content, unvalidated. */
export const RAW_SCENARIOS: ReadonlyArray<readonly [string, unknown]> = [
  ['crashloop', crashloop],
  ['image-pull-backoff', imagePullBackoff],
  ['oomkilled', oomkilled],
  ['config-error', configError],
  ['start-error', startError],
  ['job-succeeds', jobSucceeds],
  ['job-fails', jobFails],
  ['restart-policies', restartPolicies],
  ['init-failure', initFailure],
  ['sidecar', sidecar],
  ['readiness-probe', readinessProbe],
  ['liveness-probe', livenessProbe],
  ['startup-probe', startupProbe],
  ['lifecycle-hooks', lifecycleHooks],
  ['graceful-termination', gracefulTermination],
  ['runtime-not-ready', runtimeNotReady],
  ['cni-not-ready', cniNotReady],
  ['memory-pressure', memoryPressure],
  ['node-lost', nodeLost],
  ['not-ready-vs-lost', notReadyVsLost],
  ['runtime-hung', runtimeHung],
  ['partition-drift', partitionDrift],
];
