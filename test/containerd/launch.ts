/**
 * One containerd process of an instance: spawned in a private mount namespace whose /run is the
 * instance's run folder, in its own session; ready once its socket accepts connections. Used
 * at start and again by restart() (the shims and their containers live on meanwhile, as they
 * do when a node's containerd restarts).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readRecord, writeRecord } from './cleanup';
import type { InstancePaths } from './config';
import type { ContainerdBinaries } from './install';
import { isAlive, readMntNs, readStat } from './procfs';

/** True once something accepts connections on the unix socket. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function exeOf(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '';
  }
}

export interface Launched {
  pid: number;
  /** spawn → the socket accepts connections. */
  readyMs: number;
}

/**
 * Spawns containerd and waits for its socket; records pid, start time and mount namespace in
 * the instance record as soon as each is known (a crash at any point leaves enough for the
 * sweep). Throws an Error saying what went wrong; the caller tears the instance down.
 */
export async function launchContainerd(
  paths: InstancePaths,
  binaries: ContainerdBinaries,
  readyTimeoutMs: number,
): Promise<Launched> {
  // Private mount namespace, /run bound to our folder, then exec: the pid we spawn becomes
  // containerd's. `detached` gives it its own session (setsid), so a ^C to the test run does not
  // reach it and a crashed run leaves it for the next sweep to find by its recorded pid.
  const t0 = performance.now();
  const logFd = openSync(paths.log, 'a');
  const script = 'mount --bind "$1" /run && exec "$2" --config "$3"';
  const args = ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, 'sh'];
  const child = spawn(binaries.unshare, [...args, paths.run, binaries.containerd, paths.config], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: {
      ...process.env,
      PATH: `${dirname(binaries.shim)}:${dirname(binaries.runc)}:/usr/sbin:/usr/bin:/sbin:/bin`,
      TMPDIR: paths.tmp,
      XDG_RUNTIME_DIR: undefined,
    },
  });
  closeSync(logFd);
  child.unref();
  let exited: string | undefined;
  child.once('exit', (code, sig) => {
    exited = `exited with ${code ?? sig}`;
  });
  child.once('error', (err) => {
    exited = `failed to spawn: ${err.message}`;
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn ${binaries.unshare}`);
  const record = { ...readRecord(paths.dir), ownerPid: process.pid };
  writeRecord(paths.dir, {
    ...record,
    containerdPid: pid,
    containerdStartTime: readStat(pid)?.startTime,
    mntNs: undefined,
  });

  const deadline = performance.now() + readyTimeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`containerd ${exited} before it was ready`);
    if (await answers(paths.socket)) break;
    if (performance.now() > deadline) throw new Error('the socket did not answer in time');
    await sleep(5);
  }
  const readyMs = performance.now() - t0;

  // Safety: the namespace recorded here is what teardown kills by; it must not be the host's.
  const mntNs = readMntNs(pid);
  if (mntNs === undefined || mntNs === readMntNs(process.pid)) {
    throw new Error(`containerd is not in a private mount namespace (${mntNs ?? 'unknown'})`);
  }
  const exe = exeOf(pid);
  if (!exe.endsWith('/containerd')) throw new Error(`pid ${pid} is ${exe}, not containerd`);
  writeRecord(paths.dir, { ...readRecord(paths.dir), ownerPid: process.pid, mntNs });
  return { pid, readyMs };
}

/** SIGTERM, then SIGKILL after `timeoutMs`; resolves once the process is gone. */
export async function terminate(pid: number, timeoutMs: number): Promise<void> {
  const startTime = readStat(pid)?.startTime;
  if (startTime === undefined) return;
  const send = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  send('SIGTERM');
  const deadline = performance.now() + timeoutMs;
  while (isAlive(pid, startTime) && performance.now() < deadline) await sleep(10);
  if (!isAlive(pid, startTime)) return;
  send('SIGKILL');
  while (isAlive(pid, startTime)) await sleep(10);
}
