/**
 * The driver's prober and postStart hook on the in-memory runtime and a manual clock. Cases
 * follow upstream pkg/kubelet/prober/worker_test.go (kubernetes/kubernetes 632f162d: initial
 * values, thresholds, on-hold after a liveness failure, startup gating, no probing before the
 * initial delay, quiet shutdown on deletion) and kuberuntime_manager_test.go's probe kills
 * (000f2605: "Kill and recreate the container if the liveness check has failed" /
 * "…startup check has failed", no restart under restartPolicy Never).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { Driver, type DriverNote } from '../driver';
import type { ProbeNetwork } from './network';
import { ProbeNetworkError } from './network';
import { PodSpecError } from '../spec/spec';
import { FakeRuntime } from '../testing/fake-runtime';
import { advance, advanceUntil } from '../testing/step';

const BUSYBOX = 'podscope.local/busybox:1';

function setup(network?: ProbeNetwork) {
  const clock = new ManualClock();
  const runtime = new FakeRuntime(clock);
  const notes: DriverNote[] = [];
  const driver = new Driver({
    client: runtime,
    node: 'node-a',
    clock,
    log: () => undefined,
    ...(network ? { network } : {}),
  });
  driver.onNote((n) => notes.push(n));
  return { clock, runtime, driver, notes };
}

function pod(name: string, containers: V1Container[], extra: Partial<V1Pod['spec']> = {}): V1Pod {
  return { metadata: { name, namespace: 'shop' }, spec: { containers, ...extra } };
}

/** The pod most cases run: `web` with one busybox container `app` (its probes, hooks …). */
const app = (container: Partial<V1Container>, extra: Partial<V1Pod['spec']> = {}): V1Pod =>
  pod('web', [{ name: 'app', image: BUSYBOX, ...container }], extra);

const catReady = { exec: { command: ['cat', '/tmp/ready'] } };
const fileMissing = {
  exitCode: 1,
  stderr: "cat: can't open '/tmp/ready': No such file or directory\n",
};

function texts(notes: DriverNote[], type: string): string[] {
  return notes
    .map((n) => n.event)
    .filter((e) => e.type === type)
    .map((e) => ('message' in e ? e.message : JSON.stringify(e)));
}

describe('readiness probe', () => {
  it('is false until the first success, fails in place (no restart) and recovers', async () => {
    const { driver, runtime, clock, notes } = setup();
    let ready = false;
    runtime.execResults = () => (ready ? { exitCode: 0 } : fileMissing);
    const applied = await driver.apply(
      app({
        readinessProbe: { ...catReady, periodSeconds: 5, failureThreshold: 3 },
      }),
    );
    const uid = applied.metadata?.uid ?? '';
    // The relist after 1 s gives the pod worker (the status manager's role) the running container.
    await advance(clock, driver, 1_000);
    const id = runtime.containersNamed('app')[0]?.id ?? '';
    // The initial value of a readiness result is Failure: not ready before any probe passed.
    expect(driver.hints.hintsFor(uid)?.probes?.app).toMatchObject({
      containerId: id,
      readiness: false,
    });
    // The first failure counts (1 of 3) though the stored result does not change.
    expect(driver.hints.hintsFor(uid)?.probes?.app?.readinessRun).toEqual({
      success: false,
      consecutive: 1,
      threshold: 3,
      output: "cat: can't open '/tmp/ready': No such file or directory\n",
    });
    await advance(clock, driver, 30_000);
    expect(texts(notes, 'probeEvent')[0]).toBe(
      "Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory\n",
    );
    expect(texts(notes, 'probeEvent').length).toBeGreaterThanOrEqual(6);
    // A failing readiness probe never restarts the container.
    expect(runtime.containersNamed('app')).toHaveLength(1);
    expect(runtime.calls.filter((c) => c.startsWith('StopContainer'))).toEqual([]);
    ready = true;
    await advance(clock, driver, 5_000);
    expect(driver.hints.hintsFor(uid)?.probes?.app?.readiness).toBe(true);
    const changed = notes.map((n) => n.event).filter((e) => e.type === 'probeResult');
    expect(changed).toEqual([
      expect.objectContaining({
        probe: 'readiness',
        result: 'success',
        consecutive: 1,
        threshold: 1,
      }),
    ]);
    // And back to failure only after failureThreshold failures in a row.
    ready = false;
    await advance(clock, driver, 10_000);
    expect(driver.hints.hintsFor(uid)?.probes?.app?.readiness).toBe(true);
    await advance(clock, driver, 5_000);
    expect(driver.hints.hintsFor(uid)?.probes?.app?.readiness).toBe(false);
    expect(
      notes
        .map((n) => n.event)
        .filter((e) => e.type === 'probeResult')
        .at(-1),
    ).toMatchObject({
      probe: 'readiness',
      result: 'failure',
      consecutive: 3,
      threshold: 3,
    });
    await driver.stop();
  });

  it('does not probe before initialDelaySeconds', async () => {
    const { driver, runtime, clock } = setup();
    await driver.apply(
      app({
        readinessProbe: { ...catReady, initialDelaySeconds: 15, periodSeconds: 5 },
      }),
    );
    await advance(clock, driver, 14_000);
    expect(runtime.calls.filter((c) => c.startsWith('ExecSync'))).toEqual([]);
    await advance(clock, driver, 6_000);
    expect(runtime.calls.filter((c) => c.startsWith('ExecSync')).length).toBeGreaterThan(0);
    await driver.stop();
  });
});

describe('liveness probe', () => {
  it('kills after failureThreshold failures with the pod grace period and restarts (Always)', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => fileMissing;
    runtime.behaviourFor = () => ({ onTerm: 143 });
    await driver.apply(
      app(
        {
          livenessProbe: { ...catReady, periodSeconds: 10, failureThreshold: 3 },
        },
        { terminationGracePeriodSeconds: 20 },
      ),
    );
    // AddPod runs before the container exists: the first probe finds it one period later
    // (t=10 s), the third failure in a row comes at t=30 s.
    await advance(clock, driver, 29_000);
    expect(runtime.calls.filter((c) => c.startsWith('StopContainer'))).toEqual([]);
    await advance(clock, driver, 1_000);
    expect(runtime.calls.filter((c) => c.startsWith('StopContainer'))).toEqual([
      'StopContainer app timeout=20',
    ]);
    expect(texts(notes, 'killing')).toEqual([
      'Container app failed liveness probe, will be restarted',
    ]);
    expect(texts(notes, 'probeEvent')).toEqual([
      "Liveness probe failed: cat: can't open '/tmp/ready': No such file or directory\n",
      "Liveness probe failed: cat: can't open '/tmp/ready': No such file or directory\n",
      "Liveness probe failed: cat: can't open '/tmp/ready': No such file or directory\n",
    ]);
    // Restarted at once (no earlier exit to back off from), restart count 1.
    const records = runtime.containersNamed('app');
    expect(records.map((r) => [r.state, r.restartCount])).toEqual([
      ['running', 1],
      ['exited', 0],
    ]);
    expect(records[1]?.exitCode).toBe(143);
    // Each kill is 40 s after the last start; once the doubling back-off (10, 20, 40, 80 s)
    // outgrows that, the restart waits: CrashLoopBackOff.
    await advanceUntil(
      clock,
      driver,
      () => driver.pods()[0]?.syncErrors.app?.reason === 'CrashLoopBackOff',
      300_000,
      'CrashLoopBackOff',
    );
    expect(texts(notes, 'killing').length).toBeGreaterThanOrEqual(4);
    await driver.stop();
  });

  it('uses the probe terminationGracePeriodSeconds for the kill', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => ({ exitCode: 1 });
    await driver.apply(
      app(
        {
          livenessProbe: {
            ...catReady,
            periodSeconds: 1,
            failureThreshold: 1,
            terminationGracePeriodSeconds: 3,
          },
        },
        { terminationGracePeriodSeconds: 30 },
      ),
    );
    await advance(clock, driver, 2_000);
    expect(texts(notes, 'killing')).toEqual([
      'Container app failed liveness probe, will be restarted',
    ]);
    expect(runtime.calls.filter((c) => c.startsWith('StopContainer app'))).toEqual([
      'StopContainer app timeout=3',
    ]);
    // SIGKILL at the probe's 3 s, not the pod's 30 s.
    await advance(clock, driver, 3_000);
    expect(runtime.containersNamed('app')[1]).toMatchObject({ state: 'exited', exitCode: 137 });
    await driver.stop();
  });

  it('under restartPolicy Never, the failed container ends the pod (a pod-level kill)', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => ({ exitCode: 1 });
    const applied = await driver.apply(
      pod(
        'job',
        [
          {
            name: 'app',
            image: BUSYBOX,
            livenessProbe: {
              ...catReady,
              periodSeconds: 1,
              failureThreshold: 1,
              terminationGracePeriodSeconds: 3,
            },
          },
        ],
        { restartPolicy: 'Never', terminationGracePeriodSeconds: 30 },
      ),
    );
    await advance(clock, driver, 40_000);
    // Nothing will run again, so SyncPod kills the whole pod: killPodWithSyncResult stops each
    // container with the pod's grace period and the plain "Stopping container" message.
    expect(texts(notes, 'killing')).toEqual(['Stopping container app']);
    expect(runtime.calls.filter((c) => c.startsWith('StopContainer app'))).toEqual([
      'StopContainer app timeout=30',
    ]);
    expect(runtime.containersNamed('app').map((r) => [r.state, r.exitCode])).toEqual([
      ['exited', 137],
    ]);
    expect(driver.pods().find((p) => p.uid === applied.metadata?.uid)?.phase).toBe('terminal');
    await driver.stop();
  });

  it('an exec probe past its timeoutSeconds fails with "command … timed out"', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => ({ exitCode: 0, sleepMs: 5_000 });
    await driver.apply(
      app({
        livenessProbe: {
          exec: { command: ['sh', '-c', 'sleep 5'] },
          timeoutSeconds: 2,
          periodSeconds: 3,
        },
      }),
    );
    await advance(clock, driver, 5_000);
    expect(texts(notes, 'probeEvent')).toEqual([
      'Liveness probe failed: command "sh -c sleep 5" timed out',
    ]);
    await driver.stop();
  });

  it('a probe that cannot run is an error: reported, thrown away, never a kill', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execUnimplemented = true;
    await driver.apply(
      app({
        livenessProbe: { ...catReady, periodSeconds: 1, failureThreshold: 1 },
      }),
    );
    await advance(clock, driver, 5_000);
    expect(texts(notes, 'probeEvent')[0]).toBe(
      'Liveness probe errored and resulted in unknown state: rpc error: code = Unimplemented desc = ExecSync is not implemented',
    );
    expect(texts(notes, 'killing')).toEqual([]);
    await driver.stop();
  });

  it('stops liveness probing quietly once deletion starts', async () => {
    const { driver, runtime, clock } = setup();
    runtime.behaviourFor = () => ({ onTerm: 0 });
    const applied = await driver.apply(
      pod('web', [
        { name: 'app', image: BUSYBOX, livenessProbe: { ...catReady, periodSeconds: 1 } },
      ]),
    );
    await advance(clock, driver, 3_000);
    const before = runtime.calls.filter((c) => c.startsWith('ExecSync')).length;
    const deletion = driver.delete(applied.metadata?.uid ?? '', { gracePeriodSeconds: 5 });
    await advance(clock, driver, 5_000);
    await deletion;
    expect(runtime.calls.filter((c) => c.startsWith('ExecSync')).length).toBe(before);
    await driver.stop();
  });
});

describe('startup probe', () => {
  it('holds liveness and readiness back until it succeeds', async () => {
    const { driver, runtime, clock } = setup();
    let up = false;
    runtime.execResults = (cmd) =>
      cmd[1] === '/tmp/started' ? (up ? { exitCode: 0 } : { exitCode: 1 }) : { exitCode: 0 };
    const applied = await driver.apply(
      pod('slow', [
        {
          name: 'app',
          image: BUSYBOX,
          startupProbe: {
            exec: { command: ['cat', '/tmp/started'] },
            periodSeconds: 2,
            failureThreshold: 30,
          },
          readinessProbe: { ...catReady, periodSeconds: 2 },
          livenessProbe: { exec: { command: ['cat', '/tmp/alive'] }, periodSeconds: 2 },
        },
      ]),
    );
    const uid = applied.metadata?.uid ?? '';
    await advance(clock, driver, 10_000);
    const execs = runtime.calls.filter((c) => c.startsWith('ExecSync'));
    expect(new Set(execs)).toEqual(new Set(['ExecSync app cat /tmp/started']));
    expect(driver.hints.hintsFor(uid)?.probes?.app).toMatchObject({
      containerId: runtime.containersNamed('app')[0]?.id,
      readiness: false,
      startupRun: { success: false, threshold: 30 },
    });
    expect(driver.hints.hintsFor(uid)?.probes?.app?.startup).toBeUndefined();
    up = true;
    await advance(clock, driver, 2_000);
    expect(driver.hints.hintsFor(uid)?.probes?.app).toMatchObject({
      startup: true,
      readiness: true,
    });
    await advance(clock, driver, 4_000);
    const later = runtime.calls.filter((c) => c.startsWith('ExecSync')).slice(execs.length);
    expect(later).toContain('ExecSync app cat /tmp/alive');
    expect(later).toContain('ExecSync app cat /tmp/ready');
    await driver.stop();
  });

  it('kills after failureThreshold × periodSeconds without success', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => ({ exitCode: 1 });
    runtime.behaviourFor = () => ({ onTerm: 143 });
    await driver.apply(
      pod('slow', [
        {
          name: 'app',
          image: BUSYBOX,
          startupProbe: { ...catReady, periodSeconds: 5, failureThreshold: 4 },
        },
      ]),
    );
    // Probes at 5, 10, 15, 20 s: the fourth failure decides.
    await advance(clock, driver, 19_000);
    expect(texts(notes, 'killing')).toEqual([]);
    await advance(clock, driver, 1_000);
    expect(texts(notes, 'killing')).toEqual([
      'Container app failed startup probe, will be restarted',
    ]);
    await driver.stop();
  });

  it('on a sidecar, holds the app container back until the sidecar has started', async () => {
    const { driver, runtime, clock } = setup();
    let up = false;
    runtime.execResults = () => (up ? { exitCode: 0 } : { exitCode: 1 });
    await driver.apply(
      pod('mesh', [{ name: 'app', image: BUSYBOX }], {
        initContainers: [
          {
            name: 'proxy',
            image: BUSYBOX,
            restartPolicy: 'Always',
            startupProbe: { ...catReady, periodSeconds: 2, failureThreshold: 10 },
          },
        ],
      }),
    );
    await advance(clock, driver, 8_000);
    expect(runtime.containersNamed('app')).toEqual([]);
    up = true;
    await advance(clock, driver, 4_000);
    expect(runtime.containersNamed('app')[0]?.state).toBe('running');
    await driver.stop();
  });
});

describe('httpGet and tcpSocket probes', () => {
  it('dial the pod IP (the node IP for host-network pods) through the driver network', async () => {
    const seen: string[] = [];
    let status = 503;
    const network: ProbeNetwork = {
      httpGet: (req) => {
        seen.push(`GET ${req.scheme}://${req.host}:${req.port}${req.path}`);
        return Promise.resolve({ status, body: '' });
      },
      tcpConnect: (host, port) => {
        seen.push(`TCP ${host}:${port}`);
        return Promise.reject(
          new ProbeNetworkError(`dial tcp ${host}:${port}: connect: connection refused`, 'refused'),
        );
      },
    };
    const { driver, clock, notes } = setup(network);
    const applied = await driver.apply(
      app({
        ports: [{ name: 'http', containerPort: 8080 }],
        readinessProbe: {
          httpGet: { path: '/healthz', port: 'http' as never },
          periodSeconds: 5,
        },
        livenessProbe: {
          tcpSocket: { port: 9000 as never },
          periodSeconds: 5,
          failureThreshold: 10,
        },
      }),
    );
    await advance(clock, driver, 6_000);
    expect(seen).toContain('GET http://127.0.0.1:8080/healthz');
    expect(seen).toContain('TCP 127.0.0.1:9000');
    expect(texts(notes, 'probeEvent')).toContain(
      'Readiness probe failed: HTTP probe failed with statuscode: 503',
    );
    expect(texts(notes, 'probeEvent')).toContain(
      'Liveness probe failed: dial tcp 127.0.0.1:9000: connect: connection refused',
    );
    status = 200;
    await advance(clock, driver, 5_000);
    expect(driver.hints.hintsFor(applied.metadata?.uid ?? '')?.probes?.app?.readiness).toBe(true);
    await driver.stop();
  });
});

describe('postStart hook', () => {
  it('runs through ExecSync right after the start; success changes nothing', async () => {
    const { driver, runtime, clock, notes } = setup();
    await driver.apply(
      app({
        lifecycle: { postStart: { exec: { command: ['touch', '/tmp/ready'] } } },
      }),
    );
    await advance(clock, driver, 0);
    expect(runtime.calls.slice(-2)).toEqual([
      'StartContainer app',
      'ExecSync app touch /tmp/ready',
    ]);
    expect(notes.map((n) => n.event.type)).toEqual(['postStartStarted', 'postStartFinished']);
    expect(driver.pods()[0]?.syncErrors).toEqual({});
    await driver.stop();
  });

  it('a failing hook kills the container: PostStartHookError, then the crash-loop back-off', async () => {
    const { driver, runtime, clock, notes } = setup();
    runtime.execResults = () => ({ exitCode: 1, stderr: 'no config\n' });
    runtime.behaviourFor = () => ({ onTerm: 143 });
    const applied = await driver.apply(
      app(
        {
          lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } },
        },
        { terminationGracePeriodSeconds: 10 },
      ),
    );
    const uid = applied.metadata?.uid ?? '';
    await advance(clock, driver, 0);
    const message = `Exec lifecycle hook ([sh -c exit 1]) for Container "app" in Pod "web_shop(${uid})" failed - error: command 'sh -c exit 1' exited with 1: no config\n, message: "no config\\n"`;
    expect(texts(notes, 'postStartFailed')).toEqual([message]);
    expect(texts(notes, 'killing')).toEqual(['FailedPostStartHook']);
    expect(runtime.calls).toContain('StopContainer app timeout=10');
    expect(driver.pods()[0]?.syncErrors.app).toEqual({ reason: 'PostStartHookError', message });
    // The first restart is immediate (no back-off entry yet); after the second failure the next
    // start waits out the back-off: CrashLoopBackOff.
    await advanceUntil(
      clock,
      driver,
      () => driver.pods()[0]?.syncErrors.app?.reason === 'CrashLoopBackOff',
      30_000,
      'CrashLoopBackOff',
    );
    expect(texts(notes, 'postStartFailed')).toHaveLength(2);
    await driver.stop();
  });
});

describe('spec checks', () => {
  it('refuses probes the API server would reject', async () => {
    const { driver } = setup();
    await expect(
      driver.apply(
        pod('bad', [
          { name: 'app', image: BUSYBOX, livenessProbe: { ...catReady, successThreshold: 2 } },
        ]),
      ),
    ).rejects.toThrow(PodSpecError);
    await expect(
      driver.apply(
        pod('bad', [{ name: 'app', image: BUSYBOX }], {
          initContainers: [{ name: 'init', image: BUSYBOX, readinessProbe: catReady }],
        }),
      ),
    ).rejects.toThrow(/may not be set for init containers without restartPolicy=Always/);
    await expect(
      driver.apply(pod('bad', [{ name: 'app', image: BUSYBOX, readinessProbe: {} }])),
    ).rejects.toThrow(/must specify a handler type/);
    await driver.stop();
  });

  it('defaults probe fields like the API server', async () => {
    const { driver } = setup();
    const applied = await driver.apply(
      pod('web', [{ name: 'app', image: BUSYBOX, readinessProbe: catReady }]),
    );
    expect(applied.spec?.containers[0]?.readinessProbe).toEqual({
      ...catReady,
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    await driver.stop();
  });

  it('lists spec fields it does not implement as a warning on the pod', async () => {
    const { driver, notes } = setup();
    const applied = await driver.apply(
      app(
        {
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
          readinessProbe: { grpc: { port: 9000 }, periodSeconds: 5 },
        },
        {
          volumes: [{ name: 'data', emptyDir: {} }],
          dnsPolicy: 'ClusterFirst',
          nodeSelector: { disk: 'ssd' },
        },
      ),
    );
    const fields = [
      'spec.volumes',
      'spec.containers[app].volumeMounts',
      'spec.containers[app].readinessProbe.grpc',
    ];
    expect(driver.pods()[0]?.unsupported).toEqual(fields);
    expect(driver.hints.hintsFor(applied.metadata?.uid ?? '')?.unsupported).toEqual(fields);
    expect(texts(notes, 'unsupported')).toEqual([
      `Podscope's kubelet stand-in does not implement ${fields.join(', ')}: ignored on this node`,
    ]);
    await driver.stop();
  });
});
