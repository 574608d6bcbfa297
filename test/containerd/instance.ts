/**
 * Starting one private containerd for a test file: own folder, own config, own sockets, in its
 * own mount namespace whose /run is a folder of the instance (containerd 1.6 puts shim sockets
 * under /run/containerd/s), with the busybox image imported. `stop()` leaves nothing behind.
 */
import { execFile, spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  INSTANCE_PREFIX,
  readRecord,
  sweepStaleInstances,
  teardownInstance,
  writeRecord,
  type TeardownReport,
} from './cleanup';
import {
  CRI_NAMESPACE,
  instanceFolders,
  instancePaths,
  renderConfig,
  type InstancePaths,
} from './config';
import { CriClient } from '@/server/cri';
import { buildBusyboxImage, type BusyboxImage } from './image';
import { ensureContainerdInstalled, type ContainerdBinaries } from './install';
import { readMntNs, readStat } from './procfs';

const execFileP = promisify(execFile);

/** Where instance folders live unless `tmpDir` says otherwise. */
export const DEFAULT_BASE_DIR = join(tmpdir(), 'podscope-containerd');

export interface StartOptions {
  /** Folder in which the instance's own unique folder is made (and stale ones are swept). */
  tmpDir?: string;
  /** A prebuilt image; by default the cached busybox image is built or reused. */
  image?: BusyboxImage;
  /** How long to wait for the socket to answer. */
  readyTimeoutMs?: number;
}

export interface StartTimings {
  /** spawn → the gRPC socket accepts connections. */
  readyMs: number;
  /** `ctr images import` of the busybox image (and its digest name). */
  importMs: number;
  /** Until the CRI's ImageStatus reports the image with its repo digest. */
  criMs: number;
  /** Everything startContainerd did, sweep and image build included. */
  totalMs: number;
}

export interface ContainerdInstance {
  /** `unix:///…/containerd.sock`, for the CRI client. */
  endpoint: string;
  socketPath: string;
  /** containerd's pid (the spawned process execs into containerd, keeping its pid). */
  pid: number;
  /** The instance's private folder; removed by stop(). */
  dir: string;
  paths: InstancePaths;
  image: BusyboxImage;
  binaries: ContainerdBinaries;
  timings: StartTimings;
  /** Runs `ctr -a <socket> -n k8s.io <args>` and returns its stdout. */
  ctr(args: readonly string[]): Promise<string>;
  /** The tail of containerd's own log, for error messages. */
  logTail(lines?: number): string;
  /** Tears everything down; safe to call twice. Rejects if anything could not be removed. */
  stop(): Promise<TeardownReport>;
}

function tail(path: string, lines: number): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

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

async function waitForCriImage(endpoint: string, name: string, digestRef: string): Promise<void> {
  const cri = new CriClient(endpoint, { timeoutMs: 5_000 });
  try {
    const deadline = performance.now() + 10_000;
    for (;;) {
      const found = await cri.imageStatus(name);
      if (found?.repoDigests.includes(digestRef)) return;
      if (performance.now() > deadline) {
        throw new Error(
          `the CRI did not report ${name} (${digestRef}) in time: ${JSON.stringify(found)}`,
        );
      }
      await sleep(5);
    }
  } finally {
    cri.close();
  }
}

/**
 * Starts a private containerd and imports the busybox image (also its sandbox image). Stale
 * instances of crashed runs under the same base folder are torn down first.
 */
export async function startContainerd(opts: StartOptions = {}): Promise<ContainerdInstance> {
  const t0 = performance.now();
  const { binaries } = ensureContainerdInstalled();
  const base = opts.tmpDir ?? DEFAULT_BASE_DIR;
  mkdirSync(base, { recursive: true });
  await sweepStaleInstances(base);

  const dir = mkdtempSync(join(base, `${INSTANCE_PREFIX}${process.pid}-`));
  const paths = instancePaths(dir);
  writeRecord(dir, { ownerPid: process.pid, ownerStartTime: readStat(process.pid)?.startTime });
  const fail = async (message: string): Promise<never> => {
    const log = tail(paths.log, 30);
    const report = await teardownInstance(dir, { termTimeoutMs: 2_000 });
    const left = report.leftovers.length > 0 ? `\nleft behind: ${report.leftovers.join('; ')}` : '';
    throw new Error(`containerd (${dir}): ${message}\n--- containerd log ---\n${log}${left}`);
  };

  let image: BusyboxImage;
  try {
    for (const folder of instanceFolders(paths)) mkdirSync(folder, { recursive: true });
    writeFileSync(paths.config, renderConfig(paths, { runcBinary: binaries.runc }));
    image = opts.image ?? buildBusyboxImage();
  } catch (err) {
    return fail(`preparing the instance folder: ${(err as Error).message}`);
  }

  // Private mount namespace, /run bound to our folder, then exec: the pid we spawn becomes
  // containerd's. `detached` gives it its own session (setsid), so a ^C to the test run does not
  // reach it and a crashed run leaves it for the next sweep to find by its recorded pid.
  const tSpawn = performance.now();
  const logFd = openSync(paths.log, 'a');
  const script = 'mount --bind "$1" /run && exec "$2" --config "$3"';
  const child = spawn(
    binaries.unshare,
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      script,
      'sh',
      paths.run,
      binaries.containerd,
      paths.config,
    ],
    {
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: {
        ...process.env,
        PATH: `${dirname(binaries.shim)}:${dirname(binaries.runc)}:/usr/sbin:/usr/bin:/sbin:/bin`,
        TMPDIR: paths.tmp,
        XDG_RUNTIME_DIR: undefined,
      },
    },
  );
  closeSync(logFd);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) {
    return fail(`could not spawn ${binaries.unshare}`);
  }
  let exited: string | undefined;
  child.once('exit', (code, sig) => {
    exited = `exited with ${code ?? sig}`;
  });
  child.once('error', (err) => {
    exited = `failed to spawn: ${err.message}`;
  });
  const startTime = readStat(pid)?.startTime;
  writeRecord(dir, {
    ...readRecord(dir),
    ownerPid: process.pid,
    containerdPid: pid,
    containerdStartTime: startTime,
  });

  const deadline = performance.now() + (opts.readyTimeoutMs ?? 15_000);
  for (;;) {
    if (exited !== undefined) return fail(`containerd ${exited} before it was ready`);
    if (await answers(paths.socket)) break;
    if (performance.now() > deadline) return fail('the socket did not answer in time');
    await sleep(5);
  }
  const readyMs = performance.now() - tSpawn;

  // Safety: the namespace recorded here is what teardown kills by; it must not be the host's.
  const mntNs = readMntNs(pid);
  const exe = (() => {
    try {
      return readlinkSync(`/proc/${pid}/exe`);
    } catch {
      return '';
    }
  })();
  if (mntNs === undefined || mntNs === readMntNs(process.pid)) {
    return fail(`containerd is not in a private mount namespace (${mntNs ?? 'unknown'})`);
  }
  if (!exe.endsWith('/containerd')) return fail(`pid ${pid} is ${exe}, not containerd`);
  writeRecord(dir, { ...readRecord(dir), ownerPid: process.pid, mntNs });

  const ctr = async (args: readonly string[]): Promise<string> => {
    try {
      const { stdout } = await execFileP(
        binaries.ctr,
        ['-a', paths.socket, '-n', CRI_NAMESPACE, ...args],
        {
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, TMPDIR: paths.tmp },
        },
      );
      return stdout;
    } catch (err) {
      const e = err as Error & { stderr?: string };
      throw new Error(`ctr ${args.join(' ')} (${paths.socket}): ${(e.stderr ?? e.message).trim()}`);
    }
  };

  const tImport = performance.now();
  // Also name the image by its manifest digest: a node's images come from pulls and carry a
  // repo digest, so ImageStatus.repoDigests and ContainerStatus.imageRef look as they do there.
  const digestRef = `${image.name.slice(0, image.name.lastIndexOf(':'))}@${image.manifestDigest}`;
  try {
    await ctr(['images', 'import', image.path]);
    await ctr(['images', 'tag', image.name, digestRef]);
  } catch (err) {
    return fail(`importing ${image.name}: ${(err as Error).message}`);
  }
  const importMs = performance.now() - tImport;

  // The CRI plugin learns about images from events: wait until it serves this one.
  const tCri = performance.now();
  try {
    await waitForCriImage(`unix://${paths.socket}`, image.name, digestRef);
  } catch (err) {
    return fail((err as Error).message);
  }
  const criMs = performance.now() - tCri;

  let stopping: Promise<TeardownReport> | undefined;
  const stop = (): Promise<TeardownReport> => {
    stopping ??= teardownInstance(dir).then((report) => {
      if (report.leftovers.length > 0) {
        throw new Error(`containerd (${dir}) left behind: ${report.leftovers.join('; ')}`);
      }
      return report;
    });
    return stopping;
  };

  return {
    endpoint: `unix://${paths.socket}`,
    socketPath: paths.socket,
    pid,
    dir,
    paths,
    image,
    binaries,
    timings: { readyMs, importMs, criMs, totalMs: performance.now() - t0 },
    ctr,
    logTail: (lines = 30) => tail(paths.log, lines),
    stop,
  };
}
