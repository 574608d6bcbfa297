/**
 * Probes and the postStart hook through real CRI calls, the same pods on the simulator (gRPC,
 * virtual clock at 10×, its network model for httpGet/tcpSocket) and on a private real
 * containerd 1.6 with busybox (wall clock, host network, real sockets). Each case waits for the
 * kubelet's outcome: a readiness probe that passes once a file exists, a liveness probe that
 * kills and restarts, an exec probe timing out, an httpGet probe against busybox httpd, a
 * tcpSocket probe against nothing, a failing postStart hook.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri/client';
import { startSimNode, type SimNode } from '@/server/sim';
import { simProbeNetwork } from '@/server/sim/runtime/network';
import {
  skipContainerd,
  startContainerd,
  type ContainerdInstance,
} from '@/test/containerd/harness';
import { fromSimClock, systemClock, type DriverClock } from '../clock';
import { Driver, type DriverNote } from '../driver';

const IMAGE = 'podscope.local/busybox:1';
/** Inside this helper's port range (3600–3699): busybox httpd on the host network. */
const HTTP_PORT = 3631;
const CLOSED_PORT = 3632;

interface Rig {
  driver: Driver;
  clock: DriverClock;
  notes: DriverNote[];
  /** Waits up to `virtualMs` of the rig's clock for the predicate. */
  until(what: string, predicate: () => boolean, virtualMs: number): Promise<void>;
}

function makeRig(driver: Driver, clock: DriverClock, realPerVirtual: number): Rig {
  const notes: DriverNote[] = [];
  driver.onNote((n) => notes.push(n));
  return {
    driver,
    clock,
    notes,
    async until(what, predicate, virtualMs) {
      const deadline = Date.now() + virtualMs * realPerVirtual + 2_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`${what}: not within ${virtualMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

const messages = (rig: Rig, type: string, uid: string) =>
  rig.notes
    .filter((n) => n.uid === uid)
    .map((n) => n.event)
    .filter((e) => e.type === type)
    .map((e) => ('message' in e ? e.message : ''));

function pod(name: string, containers: V1Container[], spec: Partial<V1Pod['spec']> = {}): V1Pod {
  return {
    metadata: { name, namespace: 'probes' },
    spec: { terminationGracePeriodSeconds: 2, containers, ...spec },
  };
}

function probeCases(name: string, getRig: () => Rig) {
  describe(name, () => {
    it('readiness: not ready until the file exists, then ready; never restarted', async () => {
      const rig = getRig();
      const applied = await rig.driver.apply(
        pod('ready-later', [
          {
            name: 'app',
            image: IMAGE,
            command: ['sh', '-c', 'sleep 3; touch /tmp/ready; exec sleep 3600'],
            readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1 },
          },
        ]),
      );
      const uid = applied.metadata?.uid ?? '';
      const ready = () => rig.driver.hints.hintsFor(uid)?.probes?.app?.readiness;
      await rig.until(
        'a readiness failure',
        () => messages(rig, 'probeEvent', uid).length > 0,
        3_000,
      );
      expect(ready()).toBe(false);
      expect(messages(rig, 'probeEvent', uid)[0]).toMatch(
        /^Readiness probe failed: cat: can't open '\/tmp\/ready': No such file or directory/,
      );
      await rig.until('ready', () => ready() === true, 8_000);
      expect(messages(rig, 'killing', uid)).toEqual([]);
      await rig.driver.delete(uid, { gracePeriodSeconds: 0 });
    });

    it('liveness: killed after failureThreshold failures and restarted', async () => {
      const rig = getRig();
      const applied = await rig.driver.apply(
        pod('liveness', [
          {
            name: 'app',
            image: IMAGE,
            command: ['sh', '-c', "trap 'exit 143' TERM; while true; do sleep 1; done"],
            livenessProbe: {
              exec: { command: ['cat', '/tmp/healthy'] },
              periodSeconds: 1,
              failureThreshold: 2,
            },
          },
        ]),
      );
      const uid = applied.metadata?.uid ?? '';
      await rig.until('a liveness kill', () => messages(rig, 'killing', uid).length > 0, 10_000);
      expect(messages(rig, 'killing', uid)[0]).toBe(
        'Container app failed liveness probe, will be restarted',
      );
      await rig.until(
        'the restart',
        () =>
          rig.notes.some(
            (n) =>
              n.uid === uid &&
              n.event.type === 'probeEvent' &&
              n.at >
                (rig.notes.find((m) => m.uid === uid && m.event.type === 'killing')?.at ??
                  Infinity),
          ),
        10_000,
      );
      await rig.driver.delete(uid, { gracePeriodSeconds: 0 });
    });

    it('exec timeout: "command … timed out"', async () => {
      const rig = getRig();
      const applied = await rig.driver.apply(
        pod('slow-probe', [
          {
            name: 'app',
            image: IMAGE,
            command: ['sleep', '3600'],
            readinessProbe: {
              exec: { command: ['sleep', '5'] },
              timeoutSeconds: 1,
              periodSeconds: 2,
            },
          },
        ]),
      );
      const uid = applied.metadata?.uid ?? '';
      await rig.until(
        'a timeout',
        () => messages(rig, 'probeEvent', uid).some((m) => m.includes('timed out')),
        6_000,
      );
      expect(messages(rig, 'probeEvent', uid)).toContain(
        'Readiness probe failed: command "sleep 5" timed out',
      );
      await rig.driver.delete(uid, { gracePeriodSeconds: 0 });
    });

    it('httpGet against busybox httpd, tcpSocket against a closed port', async () => {
      const rig = getRig();
      const applied = await rig.driver.apply(
        pod('web', [
          {
            name: 'web',
            image: IMAGE,
            command: [
              'sh',
              '-c',
              `mkdir -p /www; echo ok > /www/healthz; exec httpd -f -p ${HTTP_PORT} -h /www`,
            ],
            readinessProbe: {
              httpGet: { path: '/healthz', port: HTTP_PORT as never },
              periodSeconds: 1,
            },
            livenessProbe: {
              tcpSocket: { port: CLOSED_PORT as never },
              periodSeconds: 1,
              failureThreshold: 100,
            },
          },
        ]),
      );
      const uid = applied.metadata?.uid ?? '';
      await rig.until(
        'ready over HTTP',
        () => rig.driver.hints.hintsFor(uid)?.probes?.web?.readiness === true,
        8_000,
      );
      await rig.until('a TCP failure', () => messages(rig, 'probeEvent', uid).length > 0, 5_000);
      expect(messages(rig, 'probeEvent', uid)).toContain(
        `Liveness probe failed: dial tcp 127.0.0.1:${CLOSED_PORT}: connect: connection refused`,
      );
      await rig.driver.delete(uid, { gracePeriodSeconds: 0 });
    });

    it('postStart failing: killed, PostStartHookError', async () => {
      const rig = getRig();
      const applied = await rig.driver.apply(
        pod('hook', [
          {
            name: 'app',
            image: IMAGE,
            command: ['sleep', '3600'],
            lifecycle: {
              postStart: { exec: { command: ['sh', '-c', 'echo no config >&2; exit 3'] } },
            },
          },
        ]),
      );
      const uid = applied.metadata?.uid ?? '';
      await rig.until(
        'the hook failure',
        () => messages(rig, 'postStartFailed', uid).length > 0,
        5_000,
      );
      expect(messages(rig, 'postStartFailed', uid)[0]).toContain(
        `Exec lifecycle hook ([sh -c echo no config >&2; exit 3]) for Container "app" in Pod "hook_probes(${uid})" failed - error: command 'sh -c echo no config >&2; exit 3' exited with 3: `,
      );
      await rig.until(
        'PostStartHookError',
        () =>
          rig.driver.pods().find((p) => p.uid === uid)?.syncErrors.app?.reason ===
          'PostStartHookError',
        5_000,
      );
      expect(messages(rig, 'killing', uid)).toContain('FailedPostStartHook');
      await rig.driver.delete(uid, { gracePeriodSeconds: 0 });
    });
  });
}

describe('probes on the simulator', () => {
  let node: SimNode;
  let client: CriClient;
  let rig: Rig;
  beforeAll(async () => {
    node = await startSimNode({ name: 'probes-sim', clock: { mode: 'real', speed: 10 } });
    client = new CriClient(node.endpoint, { timeoutMs: 5_000 });
    const clock = fromSimClock(node.clock);
    const driver = new Driver({
      client,
      node: 'probes-sim',
      clock,
      network: simProbeNetwork(node.runtime),
      removalDelayMs: 0,
      log: () => undefined,
    });
    rig = makeRig(driver, clock, 1 / 10);
  });
  afterAll(async () => {
    await rig.driver.stop();
    client.close();
    await node.stop();
  });
  probeCases('simulator', () => rig);
});

const skip = skipContainerd('probes on real containerd');

describe.skipIf(skip)('probes on real containerd (lab)', () => {
  let ctrd: ContainerdInstance | undefined;
  let client: CriClient;
  let rig: Rig;
  beforeAll(async () => {
    ctrd = await startContainerd();
    client = new CriClient(ctrd.endpoint, { timeoutMs: 10_000 });
    const driver = new Driver({
      client,
      node: 'probes-lab',
      clock: systemClock,
      lab: true,
      removalDelayMs: 0,
      log: () => undefined,
    });
    rig = makeRig(driver, systemClock, 1);
  }, 180_000);
  afterAll(async () => {
    await rig?.driver.stop();
    client?.close();
    await ctrd?.stop();
  }, 120_000);
  probeCases('containerd', () => rig);
});
