/**
 * The CRI contract: the same kubelet-like scenarios run against Podscope's simulated node and
 * against real containerd 1.6, and what each CRI reports — states in the order observed, exit
 * codes, reasons, gRPC codes — must be the same. containerd's side is also pinned to what
 * /work/shared/guides/REAL-CONTAINERD.md records, so a change in the harness or the runtime
 * cannot make both sides agree on something wrong. Messages (error details, a container's
 * message) are compared word for word, ids and digests aside: the simulator words them as
 * containerd does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri';
import { skipContainerd } from '../containerd/harness';
import type { Target } from './scenario';
import {
  containerLife,
  identity,
  lifecycleErrors,
  missingImage,
  records,
  stopContainer,
  stopPodSandbox,
  unknownIds,
  type Runtime,
} from './scenarios';
import { startContainerdTarget, startSimTarget } from './targets';

const skip = skipContainerd('CRI contract tests (simulator vs containerd)');

const created = { state: 'created' } as const;
const running = { state: 'running' } as const;
const exitedList = { state: 'exited' } as const; // ListContainers carries no exit code or reason

describe.skipIf(skip)('CRI contract: simulated node vs containerd 1.6', () => {
  const targets: Target[] = [];
  const clients: CriClient[] = [];
  let sim: Runtime;
  let ctrd: Runtime;

  beforeAll(async () => {
    const [simStart, ctrdStart] = await Promise.allSettled([
      startSimTarget(),
      startContainerdTarget(),
    ]);
    // Whatever did start is stopped in afterAll, even when the other failed.
    if (simStart.status === 'fulfilled') targets.push(simStart.value);
    if (ctrdStart.status === 'fulfilled') targets.push(ctrdStart.value);
    if (simStart.status === 'rejected') throw simStart.reason;
    if (ctrdStart.status === 'rejected') throw ctrdStart.reason;
    const simTarget = simStart.value;
    const ctrdTarget = ctrdStart.value;
    console.info(`[podscope] contract containerd: ${ctrdTarget.timings}`);
    const client = (t: Target) => {
      const c = new CriClient(t.endpoint, { timeoutMs: 30_000 });
      clients.push(c);
      return c;
    };
    sim = { cri: client(simTarget), logRoot: simTarget.logRoot };
    ctrd = { cri: client(ctrdTarget), logRoot: ctrdTarget.logRoot };
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    const stopped = await Promise.allSettled(targets.map((t) => t.stop()));
    const failed = stopped.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  });

  /** Runs one scenario on both runtimes at once and hands back both observations. */
  async function both<T>(
    scenario: (rt: Runtime) => Promise<T>,
  ): Promise<{ sim: T; containerd: T }> {
    const t0 = performance.now();
    const timed = async (rt: Runtime) => {
      const value = await scenario(rt);
      return { value, ms: performance.now() - t0 };
    };
    const [s, c] = await Promise.all([timed(sim), timed(ctrd)]);
    console.info(
      `[podscope] scenario took sim ${s.ms.toFixed(0)} ms, containerd ${c.ms.toFixed(0)} ms`,
    );
    return { sim: s.value, containerd: c.value };
  }

  function expectSame<T>(o: { sim: T; containerd: T }): void {
    expect(o.sim, 'the simulator must report what containerd reports').toEqual(o.containerd);
  }

  it('sh -c "sleep 1; exit 3": CREATED → RUNNING → EXITED 3, reason Error', async () => {
    const o = await both((rt) => containerLife(rt, 'exit3', ['sh', '-c', 'sleep 1; exit 3']));
    expect(o.containerd).toMatchObject({
      start: { ok: true },
      statusSequence: [created, running, { state: 'exited', exitCode: 3, reason: 'Error' }],
      listSequence: [created, running, exitedList],
      hasStartedAt: true,
      hasFinishedAt: true,
    });
    expectSame(o);
  });

  it('sh -c "sleep 1; exit 0": EXITED 0, reason Completed', async () => {
    const o = await both((rt) => containerLife(rt, 'exit0', ['sh', '-c', 'sleep 1; exit 0']));
    expect(o.containerd.statusSequence).toEqual([
      created,
      running,
      { state: 'exited', exitCode: 0, reason: 'Completed' },
    ]);
    expectSame(o);
  });

  it('memory limit 32 MiB, dd with 64 MiB blocks after a second: EXITED 137, reason OOMKilled', async () => {
    const o = await both((rt) =>
      containerLife(rt, 'oom', ['sh', '-c', 'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M'], {
        memoryLimitBytes: 32 * 1024 * 1024,
      }),
    );
    expect(o.containerd.statusSequence).toEqual([
      created,
      running,
      { state: 'exited', exitCode: 137, reason: 'OOMKilled' },
    ]);
    expectSame(o);
  });

  it('a binary that does not exist: StartContainer fails UNKNOWN, container EXITED 128 StartError', async () => {
    const o = await both((rt) => containerLife(rt, 'nobin', ['/no/such/binary']));
    expect(o.containerd).toMatchObject({
      start: { ok: false, code: 'UNKNOWN' },
      statusSequence: [created, { state: 'exited', exitCode: 128, reason: 'StartError' }],
      listSequence: [created, exitedList],
      hasStartedAt: false,
      hasFinishedAt: true,
    });
    expectSame(o);
  });

  it('an image that does not exist: CreateContainer fails NOT_FOUND and leaves no record', async () => {
    const o = await both(missingImage);
    expect(o.containerd).toMatchObject({
      create: { ok: false, code: 'NOT_FOUND' },
      containersInPod: 0,
    });
    expectSame(o);
  });

  it('unknown ids: status, start and stop answer NOT_FOUND; removals succeed (idempotent)', async () => {
    const o = await both(unknownIds);
    expect(o.containerd).toMatchObject({
      containerStatus: { ok: false, code: 'NOT_FOUND' },
      stopContainer: { ok: false, code: 'NOT_FOUND' },
      startContainer: { ok: false, code: 'NOT_FOUND' },
      removeContainer: { ok: true },
      podSandboxStatus: { ok: false, code: 'NOT_FOUND' },
      stopPodSandbox: { ok: false, code: 'NOT_FOUND' },
      removePodSandbox: { ok: true },
      listContainersById: 0,
      listPodSandboxById: 0,
    });
    expectSame(o);
  });

  it('StopContainer of a PID 1 that ignores SIGTERM, timeout 1: waits, then EXITED 137 Error', async () => {
    const o = await both((rt) => stopContainer(rt, 'ignore-term', ['sleep', '3600'], 1));
    expect(o.containerd).toEqual({
      before: running,
      stop: { ok: true },
      waitedForGracePeriod: true,
      after: { state: 'exited', exitCode: 137, reason: 'Error' },
    });
    expectSame(o);
  });

  it('StopContainer of a shell trapping TERM: exits at once with 143, reason Error', async () => {
    const script = "trap 'exit 143' TERM; touch /tmp/trapped; sleep 3600 & wait";
    const o = await both((rt) =>
      stopContainer(rt, 'trap-term', ['sh', '-c', script], 10, '/tmp/trapped'),
    );
    expect(o.containerd).toEqual({
      before: running,
      stop: { ok: true },
      waitedForGracePeriod: false,
      after: { state: 'exited', exitCode: 143, reason: 'Error' },
    });
    expectSame(o);
  });

  it('StopPodSandbox: SANDBOX_NOTREADY, its container killed; no new container in it; removal', async () => {
    const o = await both(stopPodSandbox);
    expect(o.containerd).toMatchObject({
      run: { state: 'ready', networkMode: 'NODE' },
      stop: { ok: true },
      statusAfter: 'notready',
      listedAfter: 'notready',
      containerAfter: { state: 'exited', exitCode: 137, reason: 'Error' },
      createInStopped: { ok: false, code: 'NOT_FOUND' },
      stopAgain: { ok: true },
      remove: { ok: true },
      listedAfterRemove: 0,
    });
    expectSame(o);
  });

  it('RemoveContainer of a running container removes it; StartContainer of an exited one fails', async () => {
    const o = await both(lifecycleErrors);
    expect(o.containerd).toMatchObject({
      remove: { ok: true },
      afterRemove: { ok: false, code: 'NOT_FOUND' },
      startExited: { ok: false, code: 'UNKNOWN' },
    });
    expectSame(o);
  });

  it('Version and Status have the same shape (values such as the runtime name differ)', async () => {
    const o = await both(identity);
    expect(o.containerd).toMatchObject({
      apiVersion: 'v1',
      conditionTypes: ['NetworkReady', 'RuntimeReady'],
      runtimeReady: true,
    });
    expectSame(o);
  });

  it('records: every field of sandbox, container (created, running, exited) and image', async () => {
    const o = await both(records);
    expect(o.containerd).toMatchObject({
      sandboxStatus: { state: 'ready', networkMode: 'NODE', uid: '<uid>', containers: 0 },
      containerCreated: { state: 'created', imageRef: 'repo digest', sandboxId: 'the pod' },
      containerListedRunning: { state: 'running', imageRef: 'image id', sandboxId: 'the pod' },
      containerExited: { exitCode: 3, reason: 'Error', finishedAt: 'about a second after started' },
      image: {
        repoTags: ['podscope.local/busybox:1'],
        repoDigests: ['podscope.local/busybox@sha256:<id>'],
      },
      imageByDigest: 'same image',
    });
    expectSame(o);
  });
});
