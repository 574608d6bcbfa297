/**
 * Real containerd for the test suites: install it, build the busybox image offline, start a
 * private instance per test file, and tear it down without a trace.
 *
 *   const skip = skipContainerd('my suite');            // prints why when it must skip
 *   describe.skipIf(skip)('my suite', () => {
 *     let ctrd: ContainerdInstance;
 *     beforeAll(async () => { ctrd = await startContainerd(); });
 *     afterAll(async () => { await ctrd?.stop(); });
 *     // … a CRI client on ctrd.endpoint …
 *   });
 *
 * Recipe and observed behaviour: /work/shared/guides/REAL-CONTAINERD.md.
 */
export {
  containerdAvailability,
  skipContainerd,
  OPT_OUT_ENV,
  type Availability,
} from './availability';
export { sweepStaleInstances, teardownInstance, type TeardownReport } from './cleanup';
export { CRI_NAMESPACE, renderConfig, instancePaths, type InstancePaths } from './config';
export { captureFootprint, findLeftovers, waitForNoLeftovers, type Footprint } from './footprint';
export {
  BUSYBOX_CMD,
  BUSYBOX_IMAGE,
  buildBusyboxImage,
  DEFAULT_CACHE_DIR,
  type BusyboxImage,
} from './image';
export { ensureContainerdInstalled, type ContainerdBinaries, type InstallResult } from './install';
export {
  DEFAULT_BASE_DIR,
  startContainerd,
  type ContainerdInstance,
  type StartOptions,
  type StartTimings,
} from './instance';
