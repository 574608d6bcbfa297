/**
 * Starting one private containerd for a test file: own folder, own config, own sockets, in its
 * own mount namespace whose /run is a folder of the instance (containerd 1.6 puts shim sockets
 * under /run/containerd/s), with the busybox image imported. `stop()` leaves nothing behind.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { CriClient } from '@/server/cri';
import {
  INSTANCE_PREFIX,
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
import { buildBusyboxImage, type BusyboxImage } from './image';
import { ensureContainerdInstalled, type ContainerdBinaries } from './install';
import { launchContainerd, terminate } from './launch';
import { readStat } from './procfs';
import { sharedTmpdir } from '../shared-tmp';

const execFileP = promisify(execFile);

/** Where instance folders live unless `tmpDir` says otherwise. */
export const DEFAULT_BASE_DIR = join(sharedTmpdir(), 'podscope-containerd');

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
  /** containerd's pid (the spawned process execs into containerd, keeping its pid); a restart changes it. */
  readonly pid: number;
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
  /**
   * Restarts containerd (SIGTERM, SIGKILL after `timeoutMs`) with the same folder and config,
   * as a node's containerd restarts: shims and containers live on, and the CRI serves them again
   * once this resolves. `downMs` keeps it down that long in between.
   */
  restart(opts?: { downMs?: number; timeoutMs?: number }): Promise<void>;
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

/**
 * Until the CRI serves the image. Right after a (re)start the CRI plugin may still be loading
 * its state and answer UNKNOWN "server is not initialized yet"; that is retried too.
 */
async function waitForCriImage(endpoint: string, name: string, digestRef: string): Promise<void> {
  const cri = new CriClient(endpoint, { timeoutMs: 5_000 });
  try {
    const deadline = performance.now() + 15_000;
    let last = '';
    for (;;) {
      try {
        const found = await cri.imageStatus(name);
        if (found?.repoDigests.includes(digestRef)) return;
        last = `ImageStatus answered ${JSON.stringify(found)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      if (performance.now() > deadline) {
        throw new Error(`the CRI did not serve ${name} (${digestRef}) in time; last: ${last}`);
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

  let pid: number;
  let readyMs: number;
  try {
    ({ pid, readyMs } = await launchContainerd(paths, binaries, opts.readyTimeoutMs ?? 15_000));
  } catch (err) {
    return fail((err as Error).message);
  }

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

  const restart = async (r: { downMs?: number; timeoutMs?: number } = {}): Promise<void> => {
    if (stopping) throw new Error(`containerd (${dir}): restart after stop`);
    await terminate(pid, r.timeoutMs ?? 5_000);
    if (r.downMs !== undefined && r.downMs > 0) await sleep(r.downMs);
    try {
      ({ pid } = await launchContainerd(paths, binaries, opts.readyTimeoutMs ?? 15_000));
      await waitForCriImage(`unix://${paths.socket}`, image.name, digestRef);
    } catch (err) {
      throw new Error(
        `containerd (${dir}): restart failed: ${(err as Error).message}\n--- containerd log ---\n${tail(paths.log, 30)}`,
      );
    }
  };

  return {
    endpoint: `unix://${paths.socket}`,
    socketPath: paths.socket,
    get pid() {
      return pid;
    },
    dir,
    paths,
    image,
    binaries,
    timings: { readyMs, importMs, criMs, totalMs: performance.now() - t0 },
    ctr,
    logTail: (lines = 30) => tail(paths.log, lines),
    restart,
    stop,
  };
}
