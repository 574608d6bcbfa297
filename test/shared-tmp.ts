/**
 * The machine's temporary directory, also during a vitest run.
 *
 * During a run, os.tmpdir() is a folder of that run's own (test/tmp-guard.ts), so what a test
 * leaves there is found and named when the run ends. What is meant to outlive one run lives in
 * the machine's temporary directory instead: caches, and the bases whose instances a later run
 * sweeps when a test process died without cleaning up (a containerd, nats-server or PostgreSQL
 * killed with it). No vitest import: bench/ and scripts/ load the harnesses too.
 */
import { tmpdir } from 'node:os';

/** The variable through which the guard names the machine's temporary directory. */
export const SHARED_TMPDIR_ENV = 'PODSCOPE_SHARED_TMPDIR';

export function sharedTmpdir(): string {
  return process.env[SHARED_TMPDIR_ENV] || tmpdir();
}
