import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS, LABELS } from '@/lib/kubelet/runtime';
import { ManualClock } from './clock';
import { Driver } from './driver';
import { DEFAULT_VERSION } from '@/server/sim/server';
import { DriverRefusedError, SIMULATOR_RUNTIME_NAMES } from './safety';
import { FakeRuntime } from './testing/fake-runtime';
import { advance, advanceUntil } from './testing/step';

const BUSYBOX = 'podscope.local/busybox:1';

function setup(
  opts: {
    backoffScale?: number;
    runtimeName?: string;
    lab?: boolean;
    maxContainerRestartPeriodMs?: number;
  } = {},
) {
  const clock = new ManualClock();
  const runtime = new FakeRuntime(clock);
  if (opts.runtimeName) runtime.runtimeName = opts.runtimeName;
  const logs: string[] = [];
  const driver = new Driver({
    client: runtime,
    node: 'node-a',
    clock,
    ...(opts.backoffScale !== undefined ? { backoffScale: opts.backoffScale } : {}),
    ...(opts.lab !== undefined ? { lab: opts.lab } : {}),
    ...(opts.maxContainerRestartPeriodMs !== undefined
      ? { maxContainerRestartPeriodMs: opts.maxContainerRestartPeriodMs }
      : {}),
    log: (l) => logs.push(l),
  });
  return { clock, runtime, driver, logs };
}

function pod(
  name: string,
  spec: Partial<V1Pod['spec']> & Pick<NonNullable<V1Pod['spec']>, 'containers'>,
): V1Pod {
  return { metadata: { name, namespace: 'shop' }, spec: { ...spec } };
}

describe('safety', () => {
  it('recognises the runtime name the simulator reports', () => {
    expect(SIMULATOR_RUNTIME_NAMES).toContain(DEFAULT_VERSION.runtimeName);
  });

  it('refuses a runtime that is not the simulator', async () => {
    const { driver, runtime } = setup({ runtimeName: 'containerd' });
    await expect(
      driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] })),
    ).rejects.toThrow(DriverRefusedError);
    await expect(
      driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] })),
    ).rejects.toThrow(
      /refusing to create or delete pods on unix:\/\/\/fake\/cri.sock: it reports runtime "containerd"/,
    );
    expect(runtime.calls).toEqual([]);
  });

  it('accepts any runtime marked as a lab, without asking its name', async () => {
    const { driver, runtime, clock } = setup({ runtimeName: 'containerd', lab: true });
    runtime.failNext.set('Version', new Error('must not be called') as never);
    await driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] }));
    await advance(clock, driver, 0);
    expect(runtime.calls).toContain('StartContainer app');
    await driver.stop();
  });

  it('retries the check after a failed Version call instead of refusing for good', async () => {
    const { driver, runtime } = setup();
    runtime.failNext.set(
      'Version',
      Object.assign(new Error('down'), { codeName: 'UNAVAILABLE' }) as never,
    );
    await expect(driver.ensureAllowed()).rejects.toThrow(/cannot verify/);
    await expect(driver.ensureAllowed()).resolves.toBeUndefined();
    await driver.stop();
  });
});

describe('sync order, labels and annotations', () => {
  it('runs the sandbox, init containers one after another, then the app', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = (spec) =>
      spec.name.startsWith('init') ? { exitAfterMs: 2_000, exitCode: 0 } : {};
    const applied = await driver.apply(
      pod('web', {
        initContainers: [
          { name: 'init-a', image: BUSYBOX },
          { name: 'init-b', image: BUSYBOX },
        ],
        containers: [
          {
            name: 'app',
            image: BUSYBOX,
            lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } },
          },
        ],
      }),
    );
    await advance(clock, driver, 0);
    expect(runtime.calls).toEqual([
      'RunPodSandbox web attempt=0',
      'CreateContainer init-a attempt=0',
      'StartContainer init-a',
    ]);
    await advance(clock, driver, 3_000);
    expect(runtime.calls.slice(3)).toEqual([
      'CreateContainer init-b attempt=0',
      'StartContainer init-b',
    ]);
    await advance(clock, driver, 3_000);
    expect(runtime.calls.slice(5)).toEqual(['CreateContainer app attempt=0', 'StartContainer app']);

    const uid = applied.metadata?.uid ?? '';
    const [sandbox] = runtime.allSandboxes();
    expect(sandbox?.labels).toMatchObject({
      [LABELS.podName]: 'web',
      [LABELS.podNamespace]: 'shop',
      [LABELS.podUid]: uid,
    });
    expect(sandbox?.networkMode).toBe('NODE');
    const annotated = JSON.parse(sandbox?.annotations[ANNOTATIONS.podSpec] ?? '{}') as V1Pod;
    expect(annotated.metadata?.uid).toBe(uid);
    expect(annotated.spec?.restartPolicy).toBe('Always');
    expect(annotated.spec?.hostNetwork).toBe(true);
    expect(annotated.spec?.initContainers?.map((c) => c.name)).toEqual(['init-a', 'init-b']);

    const [app] = runtime.containersNamed('app');
    expect(app?.labels).toEqual({
      [LABELS.podName]: 'web',
      [LABELS.podNamespace]: 'shop',
      [LABELS.podUid]: uid,
      [LABELS.containerName]: 'app',
    });
    expect(app?.annotations).toMatchObject({
      [ANNOTATIONS.restartCount]: '0',
      [ANNOTATIONS.containerType]: 'container',
      [ANNOTATIONS.terminationMessagePath]: '/dev/termination-log',
      [ANNOTATIONS.terminationMessagePolicy]: 'File',
      [ANNOTATIONS.podTerminationGracePeriod]: '30',
      [ANNOTATIONS.preStopHandler]: JSON.stringify({ exec: { command: ['sleep', '1'] } }),
    });
    expect(app?.annotations[ANNOTATIONS.containerHash]).toMatch(/^[0-9a-f]+$/);
    expect(runtime.containersNamed('init-a')[0]?.annotations[ANNOTATIONS.containerType]).toBe(
      'init',
    );
    await driver.stop();
  });

  it('leaves a pod that says hostNetwork: false in its own network namespace', async () => {
    const { driver, runtime, clock } = setup();
    await driver.apply(
      pod('web', { hostNetwork: false, containers: [{ name: 'app', image: BUSYBOX }] }),
    );
    await advance(clock, driver, 0);
    expect(runtime.allSandboxes()[0]?.networkMode).toBe('POD');
    await driver.stop();
  });

  it('rejects a second pod with the same namespace and name', async () => {
    const { driver } = setup();
    await driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] }));
    await expect(
      driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] })),
    ).rejects.toThrow(/pod shop\/web already exists on node-a/);
    await driver.stop();
  });
});

describe('restarts and CrashLoopBackOff', () => {
  it('restarts at once, then backs off 10 s, 20 s, 40 s from each exit', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = () => ({ exitAfterMs: 1_000, exitCode: 1 });
    const applied = await driver.apply(
      pod('crasher', { containers: [{ name: 'app', image: BUSYBOX }] }),
    );
    const uid = applied.metadata?.uid ?? '';
    const starts = () => runtime.calls.filter((c) => c === 'StartContainer app').length;
    await advance(clock, driver, 0);
    expect(starts()).toBe(1);

    // First exit at t=1s: the kubelet has no back-off entry yet, so it restarts on the next sync.
    await advanceUntil(clock, driver, () => starts() === 2, 5_000, 'first restart');
    const second = runtime.containersNamed('app')[0];
    expect(second?.attempt).toBe(1);
    expect(second?.annotations[ANNOTATIONS.restartCount]).toBe('1');

    // Second exit: in back-off for 10 s from its finish.
    await advanceUntil(
      clock,
      driver,
      () => driver.hints.hintsFor(uid)?.syncErrors?.app !== undefined,
      5_000,
    );
    const exitedAt = runtime.containersNamed('app')[0]?.finishedAt ?? 0;
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app).toEqual({
      reason: 'CrashLoopBackOff',
      message: `back-off 10s restarting failed container=app pod=crasher_shop(${uid})`,
    });
    await advance(clock, driver, exitedAt + 9_999 - clock.now());
    expect(starts()).toBe(2);
    await advance(clock, driver, 1);
    expect(starts()).toBe(3);
    expect(driver.hints.hintsFor(uid)?.syncErrors).toBeUndefined();

    // Third exit: the window doubles.
    await advanceUntil(
      clock,
      driver,
      () => driver.hints.hintsFor(uid)?.syncErrors?.app !== undefined,
      5_000,
    );
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app?.message).toMatch(/^back-off 20s /);
    const thirdExit = runtime.containersNamed('app')[0]?.finishedAt ?? 0;
    await advanceUntil(clock, driver, () => starts() === 4, 30_000);
    expect(clock.now() - thirdExit).toBe(20_000);
    // The container GC keeps only the newest dead record per name next to the running one.
    expect(runtime.containersNamed('app').length).toBeLessThanOrEqual(2);
    await driver.stop();
  });

  it('scales every back-off with backoffScale', async () => {
    const { driver, runtime, clock } = setup({ backoffScale: 0.1 });
    runtime.behaviourFor = () => ({ exitAfterMs: 500, exitCode: 2 });
    const applied = await driver.apply(
      pod('crasher', { containers: [{ name: 'app', image: BUSYBOX }] }),
    );
    const uid = applied.metadata?.uid ?? '';
    await advanceUntil(
      clock,
      driver,
      () => driver.hints.hintsFor(uid)?.syncErrors?.app !== undefined,
      10_000,
    );
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app?.message).toMatch(
      /^back-off 1s restarting failed container=app/,
    );
    await driver.stop();
  });

  it("takes the node's maxContainerRestartPeriod: 2 s restarts every 2 s, never longer", async () => {
    const { driver, runtime, clock } = setup({ maxContainerRestartPeriodMs: 2000 });
    runtime.behaviourFor = () => ({ exitAfterMs: 100, exitCode: 1 });
    const applied = await driver.apply(
      pod('fast', { containers: [{ name: 'app', image: BUSYBOX }] }),
    );
    const uid = applied.metadata?.uid ?? '';
    const starts = () => runtime.calls.filter((c) => c.startsWith('StartContainer')).length;
    const error = () => driver.hints.hintsFor(uid)?.syncErrors?.app;
    await advanceUntil(clock, driver, () => starts() >= 5 && error() !== undefined, 60_000);
    expect(error()?.message ?? '').toMatch(/^back-off 2s restarting failed container=app/);
    await driver.stop();
  });

  it('refuses a maxContainerRestartPeriod the kubelet would refuse', () => {
    expect(() => setup({ maxContainerRestartPeriodMs: 400_000 })).toThrow(/between 1s and 300s/);
  });

  it('does not restart a container that succeeded under OnFailure, and then ends the pod', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = () => ({ exitAfterMs: 1_000, exitCode: 0 });
    const applied = await driver.apply(
      pod('job', { restartPolicy: 'OnFailure', containers: [{ name: 'work', image: BUSYBOX }] }),
    );
    await advance(clock, driver, 5_000);
    expect(runtime.calls.filter((c) => c.startsWith('StartContainer'))).toEqual([
      'StartContainer work',
    ]);
    expect(runtime.allSandboxes()[0]?.state).toBe('notready');
    expect(driver.hints.hintsFor(applied.metadata?.uid ?? '')?.podIsTerminal).toBe(true);
    await driver.stop();
  });

  it('never runs two syncs of one pod at once', async () => {
    const { driver, runtime, clock } = setup();
    let inFlight = 0;
    let maxInFlight = 0;
    const original = runtime.listContainers.bind(runtime);
    runtime.listContainers = async (filter) => {
      if (filter?.labelSelector) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((r) => setImmediate(r));
        inFlight--;
      }
      return original(filter);
    };
    await driver.apply(pod('web', { containers: [{ name: 'app', image: BUSYBOX }] }));
    driver.resyncAll();
    driver.resyncAll();
    driver.resyncAll();
    await advance(clock, driver, 3_000);
    expect(maxInFlight).toBe(1);
    await driver.stop();
  });
});

describe('images', () => {
  it('records ErrImagePull, then ImagePullBackOff while the image back-off runs', async () => {
    const { driver, runtime, clock } = setup();
    const image = 'registry.local/shop/missing:1.0';
    runtime.failingPulls.set(image, `failed to pull and unpack image "${image}": not found`);
    const applied = await driver.apply(pod('bad', { containers: [{ name: 'app', image }] }));
    const uid = applied.metadata?.uid ?? '';
    const reasons: { t: number; reason: string }[] = [];
    driver.hints.onChange?.(() => {
      const r = driver.hints.hintsFor(uid)?.syncErrors?.app?.reason;
      if (r && reasons.at(-1)?.reason !== r) reasons.push({ t: clock.now(), reason: r });
    });
    await advance(clock, driver, 0);
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app).toEqual({
      reason: 'ErrImagePull',
      message: `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": not found`,
    });
    await advance(clock, driver, 2_000);
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app).toEqual({
      reason: 'ImagePullBackOff',
      message: `Back-off pulling image "${image}"`,
    });
    await advance(clock, driver, 120_000);
    expect(reasons.slice(0, 4).map((r) => r.reason)).toEqual([
      'ErrImagePull',
      'ImagePullBackOff',
      'ErrImagePull',
      'ImagePullBackOff',
    ]);
    // Each pull waits out a window twice as long as the one before: 10 s, 20 s, 40 s …
    const pulls = reasons.filter((r) => r.reason === 'ErrImagePull').map((r) => r.t);
    const gaps = pulls.slice(1).map((t, i) => t - (pulls[i] ?? 0));
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(20_000);
    expect(runtime.calls.some((c) => c.startsWith('CreateContainer'))).toBe(false);
    await driver.stop();
  });

  it('does not pull an image that is present under IfNotPresent, and always pulls :latest', async () => {
    const { driver, runtime, clock } = setup();
    runtime.images.add('registry.local/tool:latest');
    await driver.apply(
      pod('p', {
        containers: [
          { name: 'a', image: BUSYBOX },
          { name: 'b', image: 'registry.local/tool:latest' },
        ],
      }),
    );
    await advance(clock, driver, 0);
    expect(runtime.calls.filter((c) => c.startsWith('PullImage'))).toEqual([
      'PullImage registry.local/tool:latest',
    ]);
    await driver.stop();
  });
});

describe('CreateContainerConfigError', () => {
  it('fails a container whose configMapKeyRef names a missing ConfigMap, until it exists', async () => {
    const { driver, runtime, clock } = setup();
    const applied = await driver.apply(
      pod('cfg', {
        containers: [
          {
            name: 'app',
            image: BUSYBOX,
            env: [
              {
                name: 'LEVEL',
                valueFrom: { configMapKeyRef: { name: 'app-config', key: 'level' } },
              },
            ],
          },
        ],
      }),
    );
    const uid = applied.metadata?.uid ?? '';
    await advance(clock, driver, 0);
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app).toEqual({
      reason: 'CreateContainerConfigError',
      message: 'configmap "app-config" not found',
    });
    driver.configs.putConfigMap('shop', 'app-config', { other: 'x' });
    driver.resyncAll();
    await advance(clock, driver, 0);
    expect(driver.hints.hintsFor(uid)?.syncErrors?.app?.message).toBe(
      "couldn't find key level in ConfigMap shop/app-config",
    );
    driver.configs.putConfigMap('shop', 'app-config', { level: 'debug' });
    driver.resyncAll();
    await advance(clock, driver, 0);
    expect(driver.hints.hintsFor(uid)?.syncErrors).toBeUndefined();
    expect(runtime.calls).toContain('StartContainer app');
    await driver.stop();
  });
});

describe('init containers and sidecars', () => {
  it('under restartPolicy Never a failed init container ends the pod; the app never starts', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = (spec) =>
      spec.name === 'migrate' ? { exitAfterMs: 1_000, exitCode: 3 } : {};
    const applied = await driver.apply(
      pod('once', {
        restartPolicy: 'Never',
        initContainers: [{ name: 'migrate', image: BUSYBOX }],
        containers: [{ name: 'app', image: BUSYBOX }],
      }),
    );
    await advance(clock, driver, 30_000);
    expect(runtime.calls.filter((c) => c.startsWith('StartContainer'))).toEqual([
      'StartContainer migrate',
    ]);
    expect(runtime.allSandboxes()[0]?.state).toBe('notready');
    expect(driver.hints.hintsFor(applied.metadata?.uid ?? '')?.podIsTerminal).toBe(true);
    await driver.stop();
  });

  it('under restartPolicy Always a failed init container is restarted with back-off', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = (spec) =>
      spec.name === 'migrate' ? { exitAfterMs: 1_000, exitCode: 3 } : {};
    const applied = await driver.apply(
      pod('retry', {
        initContainers: [{ name: 'migrate', image: BUSYBOX }],
        containers: [{ name: 'app', image: BUSYBOX }],
      }),
    );
    const uid = applied.metadata?.uid ?? '';
    await advanceUntil(
      clock,
      driver,
      () => driver.hints.hintsFor(uid)?.syncErrors?.migrate !== undefined,
      10_000,
    );
    expect(driver.hints.hintsFor(uid)?.syncErrors?.migrate?.reason).toBe('CrashLoopBackOff');
    expect(driver.hints.hintsFor(uid)?.podIsTerminal).toBe(false);
    expect(runtime.calls.some((c) => c === 'StartContainer app')).toBe(false);
    await driver.stop();
  });

  it('starts the next init container once a sidecar runs, restarts it on exit, stops it when the pod ends', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = (spec) =>
      spec.name === 'main'
        ? { exitAfterMs: 10_000, exitCode: 0 }
        : spec.name === 'setup'
          ? { exitAfterMs: 1_000 }
          : { onTerm: 143 };
    const applied = await driver.apply(
      pod('with-sidecar', {
        restartPolicy: 'Never',
        initContainers: [
          { name: 'proxy', image: BUSYBOX, restartPolicy: 'Always' },
          { name: 'setup', image: BUSYBOX },
        ],
        containers: [{ name: 'main', image: BUSYBOX }],
      }),
    );
    await advance(clock, driver, 0);
    // The sidecar started in the first sync; "setup" goes as soon as the sidecar is seen running.
    await advance(clock, driver, 1_000);
    expect(runtime.calls.filter((c) => c.startsWith('StartContainer'))).toEqual([
      'StartContainer proxy',
      'StartContainer setup',
    ]);
    await advance(clock, driver, 2_000);
    expect(runtime.calls).toContain('StartContainer main');
    // The sidecar dies while main runs: restarted even though the pod's policy is Never.
    runtime.exitNow('proxy', 1);
    await advance(clock, driver, 1_000);
    expect(runtime.calls.filter((c) => c === 'StartContainer proxy')).toHaveLength(2);
    // main succeeds: nothing will run again, the sidecar is stopped and the pod is terminal.
    await advance(clock, driver, 10_000);
    expect(runtime.containersNamed('proxy')[0]?.state).toBe('exited');
    expect(runtime.calls).toContain('StopPodSandbox with-sidecar');
    expect(driver.hints.hintsFor(applied.metadata?.uid ?? '')?.podIsTerminal).toBe(true);
    await driver.stop();
  });
});

describe('graceful deletion', () => {
  it('runs preStop, stops with the remaining grace, then removes everything, in that order', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = () => ({ onTerm: 143 });
    const notes: string[] = [];
    driver.onNote((n) => notes.push(n.event.type));
    const applied = await driver.apply(
      pod('web', {
        terminationGracePeriodSeconds: 30,
        containers: [
          {
            name: 'app',
            image: BUSYBOX,
            lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          },
        ],
      }),
    );
    const uid = applied.metadata?.uid ?? '';
    await advance(clock, driver, 0);
    runtime.calls.length = 0;
    const deletion = driver.delete(uid, { gracePeriodSeconds: 10 });
    let done = false;
    void deletion.then(() => (done = true));
    await advance(clock, driver, 0);
    expect(driver.hints.hintsFor(uid)).toMatchObject({
      deletionTimestamp: clock.now(),
      podIsTerminal: true,
    });
    expect(runtime.calls).toEqual(['ExecSync app sleep 5']);
    await advance(clock, driver, 5_000);
    await advance(clock, driver, 2_000);
    await deletion;
    expect(done).toBe(true);
    expect(runtime.calls).toEqual([
      'ExecSync app sleep 5',
      'StopContainer app timeout=5',
      'StopPodSandbox web',
      'RemoveContainer app',
      'RemovePodSandbox web',
    ]);
    expect(notes).toEqual([
      'killing',
      'preStopStarted',
      'preStopFinished',
      'stopContainer',
      'stopped',
    ]);
    expect(driver.hints.hintsFor(uid)).toBeUndefined();
    expect(driver.pods()).toEqual([]);
    await driver.stop();
  });

  it('SIGKILLs a container that ignores SIGTERM when the grace period runs out (137)', async () => {
    const { driver, runtime, clock } = setup();
    const applied = await driver.apply(
      pod('stubborn', { containers: [{ name: 'app', image: BUSYBOX }] }),
    );
    await advance(clock, driver, 0);
    const start = clock.now();
    let stopped: { at: number; exitCode?: number; reason?: string } | undefined;
    driver.onNote(({ event }) => {
      if (event.type !== 'stopped') return;
      const record = runtime.containersNamed('app')[0];
      stopped = {
        at: clock.now(),
        ...(record?.exitCode !== undefined ? { exitCode: record.exitCode } : {}),
        ...(record?.reason !== undefined ? { reason: record.reason } : {}),
      };
    });
    const deletion = driver.delete(applied.metadata?.uid ?? '', { gracePeriodSeconds: 4 });
    await advance(clock, driver, 3_999);
    expect(runtime.containersNamed('app')[0]?.state).toBe('running');
    await advance(clock, driver, 1);
    await advance(clock, driver, 2_000);
    await deletion;
    expect(stopped).toEqual({ at: start + 4_000, exitCode: 137, reason: 'Error' });
    await driver.stop();
  });

  it('cuts a preStop hook off at the grace period and still gives StopContainer 2 s', async () => {
    const { driver, runtime, clock } = setup();
    const applied = await driver.apply(
      pod('slow-hook', {
        containers: [
          {
            name: 'app',
            image: BUSYBOX,
            lifecycle: { preStop: { exec: { command: ['sleep', '60'] } } },
          },
        ],
      }),
    );
    await advance(clock, driver, 0);
    const deletion = driver.delete(applied.metadata?.uid ?? '', { gracePeriodSeconds: 3 });
    await advance(clock, driver, 3_000);
    expect(runtime.calls).toContain('StopContainer app timeout=2');
    await advance(clock, driver, 2_000);
    await advance(clock, driver, 2_000);
    await deletion;
    await driver.stop();
  });

  it('skips an exec preStop on a runtime without ExecSync, and says so', async () => {
    const { driver, runtime, clock, logs } = setup();
    runtime.execUnimplemented = true;
    runtime.behaviourFor = () => ({ onTerm: 143 });
    const applied = await driver.apply(
      pod('web', {
        containers: [
          {
            name: 'app',
            image: BUSYBOX,
            lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
          },
        ],
      }),
    );
    await advance(clock, driver, 0);
    const deletion = driver.delete(applied.metadata?.uid ?? '', { gracePeriodSeconds: 10 });
    await advance(clock, driver, 0);
    await advance(clock, driver, 2_000);
    await deletion;
    expect(runtime.calls).toContain('StopContainer app timeout=10');
    expect(logs.some((l) => l.includes('does not implement ExecSync'))).toBe(true);
    await driver.stop();
  });

  it('stops sidecars only after the main containers', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = (spec) => (spec.name === 'main' ? {} : { onTerm: 143 });
    const applied = await driver.apply(
      pod('ordered', {
        initContainers: [{ name: 'proxy', image: BUSYBOX, restartPolicy: 'Always' }],
        containers: [{ name: 'main', image: BUSYBOX }],
      }),
    );
    await advance(clock, driver, 2_000);
    runtime.calls.length = 0;
    const deletion = driver.delete(applied.metadata?.uid ?? '', { gracePeriodSeconds: 6 });
    await advance(clock, driver, 0);
    expect(runtime.calls).toEqual(['StopContainer main timeout=6']);
    await advance(clock, driver, 6_000);
    await advance(clock, driver, 2_000);
    await deletion;
    expect(runtime.calls.slice(0, 2)).toEqual([
      'StopContainer main timeout=6',
      'StopContainer proxy timeout=2',
    ]);
    await driver.stop();
  });
});

describe('hints', () => {
  it('notifies listeners with the uids whose hints changed', async () => {
    const { driver, runtime, clock } = setup();
    runtime.failingPulls.set('registry.local/x:1', 'nope');
    const seen: string[][] = [];
    const off = driver.hints.onChange?.((uids) => seen.push(uids));
    const applied = await driver.apply(
      pod('x', { containers: [{ name: 'app', image: 'registry.local/x:1' }] }),
    );
    await advance(clock, driver, 0);
    const uid = applied.metadata?.uid ?? '';
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((u) => u.length === 1 && u[0] === uid)).toBe(true);
    expect(driver.hints.specFor?.(uid)?.spec?.nodeName).toBe('node-a');
    off?.();
    await driver.stop();
  });
});
