/**
 * ExecSync in a simulated container (containerd's execInternal, as the probes and hooks call it):
 * a SimExec process beside the main one, sharing the container's files, cut off at the timeout
 * (DEADLINE_EXCEEDED with containerd's message); output capped at 16 MiB per stream as
 * containerd caps it. Everything runs in virtual time.
 */
import type { ExecSyncResponse } from '@/server/cri/generated/runtime/v1/ExecSyncResponse';
import type { Random } from '@/lib/random';
import { resolveExecutable } from './applets';
import type { SimClock } from '../clock/clock';
import { SimRpcError, unknown } from '../runtime/errors';
import { SimExec } from './process';
import type { ContainerRecord } from '../runtime/records';

export interface ExecHost {
  clock: SimClock;
  random: Random;
  /** The names of the processes running in the container (pgrep's view). */
  processNames: () => string[];
}

/** Runs `cmd` in the container; resolves with its output and exit code when it ends. */
export async function execInContainer(
  c: ContainerRecord,
  cmd: string[],
  timeoutSeconds: number,
  host: ExecHost,
): Promise<ExecSyncResponse> {
  if (c.state !== 'CONTAINER_RUNNING') {
    throw unknown(`failed to exec in container: container is in ${c.state} state`);
  }
  const exe = cmd[0];
  if (exe === undefined) throw unknown('failed to exec in container: exec command is empty');
  if (resolveExecutable(c.image.entry.rootfs, exe) === undefined) {
    throw unknown(
      `failed to exec in container: failed to start exec "${host.random.hex(32)}": OCI runtime exec failed: ` +
        `exec failed: unable to start container process: exec: "${exe}": executable file not found in $PATH: unknown`,
    );
  }
  const exec = new SimExec({
    clock: host.clock,
    rootfs: c.image.entry.rootfs,
    argv: cmd,
    env: { ...c.env },
    files: c.files,
    processNames: host.processNames,
  });
  const execs = (c.execs ??= new Set());
  execs.add(exec);
  void exec.done.then(() => execs.delete(exec));
  let timer: ReturnType<SimClock['after']> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (timeoutSeconds > 0)
      timer = host.clock.after(timeoutSeconds * 1000, () => resolve('timeout'));
  });
  exec.start();
  const outcome = await Promise.race([exec.done, timedOut]);
  if (timer) host.clock.cancel(timer);
  if (outcome === 'timeout') {
    exec.kill();
    throw new SimRpcError(
      4,
      `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`,
    );
  }
  const cap = (s: string) => Buffer.from(s).subarray(0, 16 * 1024 * 1024);
  return {
    stdout: cap(outcome.stdout),
    stderr: cap(outcome.stderr),
    exit_code: outcome.exitCode,
  };
}
