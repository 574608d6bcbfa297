import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { createClock } from '../clock/clock';
import { SimRpcError } from './errors';
import { SimRuntime } from './model';
import { createRandom } from '@/lib/random';
import { createRequest, podSpec, runPodRequest } from '../testing';

const IMAGE = 'podscope.local/busybox:1';

function setup(eventsMode: 'stream' | 'unimplemented' = 'stream') {
  const clock = createClock({ mode: 'manual', start: 1_000_000 });
  const runtime = new SimRuntime({ name: 'n1', clock, random: createRandom('t'), eventsMode });
  const pod = podSpec('web');
  const sandboxId = runtime.runPodSandbox(runPodRequest(pod));
  const create = (name: string, command: string[], extra: object = {}) =>
    runtime.createContainer(
      createRequest(sandboxId, { name, image: IMAGE, command, ...extra }, pod),
    );
  return { clock, runtime, pod, sandboxId, create };
}

function rpcError(fn: () => unknown): SimRpcError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SimRpcError) return err;
    throw err;
  }
  throw new Error('expected a SimRpcError');
}

describe('containers: the REAL-CONTAINERD table', () => {
  it('sh -c "sleep 2; exit 3": CREATED → RUNNING → EXITED 3 Error', () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sh', '-c', 'sleep 2; exit 3']);
    expect(runtime.findContainer(id).state).toBe('CONTAINER_CREATED');
    runtime.startContainer(id);
    expect(runtime.findContainer(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(2000);
    expect(runtime.findContainer(id)).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('exit 0: Completed', () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sh', '-c', 'exit 0']);
    runtime.startContainer(id);
    clock.advance(1);
    expect(runtime.findContainer(id)).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('missing image: CreateContainer NOT_FOUND, no record left', () => {
    const { runtime, create } = setup();
    const err = rpcError(() => create('main', ['true'], { image: 'podscope.local/nope:1' }));
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.message).toBe('failed to resolve image "podscope.local/nope:1": not found');
    expect(runtime.containers.size).toBe(0);
  });

  it('missing binary: StartContainer UNKNOWN, EXITED 128 StartError', () => {
    const { runtime, create } = setup();
    const id = create('main', ['/no/such/binary']);
    const err = rpcError(() => runtime.startContainer(id));
    expect(err.code).toBe(status.UNKNOWN);
    expect(runtime.findContainer(id)).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 128,
      reason: 'StartError',
      message: err.message,
      startedAt: 0,
    });
  });

  it('memory limit 32 MiB, main process over it: EXITED 137 OOMKilled', () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sh', '-c', 'sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M'], {
      resources: { memoryLimitBytes: 32 * 1024 * 1024 },
    });
    runtime.startContainer(id);
    clock.advance(1100);
    expect(runtime.findContainer(id)).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('only a child OOM-killed: OOMKilled while RUNNING, later EXITED 0 OOMKilled', () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sh', '-c', 'dd if=/dev/zero of=/dev/null bs=64M; sleep 2'], {
      resources: { memoryLimitBytes: 32 * 1024 * 1024 },
    });
    runtime.startContainer(id);
    clock.advance(100);
    expect(runtime.findContainer(id)).toMatchObject({
      state: 'CONTAINER_RUNNING',
      reason: 'OOMKilled',
    });
    clock.advance(2000);
    expect(runtime.findContainer(id)).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 0,
      reason: 'OOMKilled',
    });
  });

  it('StopContainer, PID 1 ignores SIGTERM, timeout 1: 137 Error after the timeout', async () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sleep', '3600']);
    runtime.startContainer(id);
    const t0 = clock.now();
    let done = false;
    const stop = runtime.stopContainer(id, 1).then(() => {
      done = true;
    });
    clock.advance(999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await stop;
    expect(runtime.findContainer(id)).toMatchObject({
      exitCode: 137,
      reason: 'Error',
      finishedAt: t0 + 1000,
    });
  });

  it('a shell trapping SIGTERM ends 143 before the timeout', async () => {
    const { clock, runtime, create } = setup();
    const id = create('main', ['sh', '-c', "trap 'exit 143' TERM; while true; do sleep 1; done"]);
    runtime.startContainer(id);
    clock.advance(500);
    const stop = runtime.stopContainer(id, 30);
    clock.advance(500);
    await stop;
    expect(runtime.findContainer(id)).toMatchObject({ exitCode: 143, reason: 'Error' });
    expect(clock.pending()).toBe(0); // the SIGKILL timer was cancelled
  });

  it('StopContainer timeout 0 kills at once; of an exited container is a no-op', async () => {
    const { runtime, create } = setup();
    const id = create('main', ['sleep', '3600']);
    runtime.startContainer(id);
    await runtime.stopContainer(id, 0);
    expect(runtime.findContainer(id).exitCode).toBe(137);
    await runtime.stopContainer(id, 10);
    expect(runtime.findContainer(id).exitCode).toBe(137);
  });

  it('an unknown id: NOT_FOUND for status/start/stop, OK for remove', async () => {
    const { runtime } = setup();
    const unknown = 'f'.repeat(64);
    expect(rpcError(() => runtime.findContainer(unknown)).code).toBe(status.NOT_FOUND);
    expect(rpcError(() => runtime.startContainer(unknown)).code).toBe(status.NOT_FOUND);
    await expect(runtime.stopContainer(unknown, 1)).rejects.toMatchObject({
      code: status.NOT_FOUND,
    });
    expect(() => runtime.removeContainer(unknown)).not.toThrow();
  });

  it('StartContainer twice: UNKNOWN "container is in CONTAINER_RUNNING state"', () => {
    const { runtime, create } = setup();
    const id = create('main', ['sleep', '10']);
    runtime.startContainer(id);
    const err = rpcError(() => runtime.startContainer(id));
    expect(err.code).toBe(status.UNKNOWN);
    expect(err.message).toContain('container is in CONTAINER_RUNNING state');
  });

  it('RemoveContainer of a running container kills it first (containerd 1.6+)', () => {
    const { runtime, create } = setup();
    const id = create('main', ['sleep', '3600']);
    runtime.startContainer(id);
    runtime.removeContainer(id);
    expect(runtime.containers.has(id)).toBe(false);
  });

  it('names are reserved per (name, attempt) until removed', () => {
    const { runtime, create } = setup();
    const id = create('main', ['true']);
    const err = rpcError(() => create('main', ['true']));
    expect(err.message).toMatch(
      /^failed to reserve container name "main_web_default_uid-web_0": name ".*" is reserved for "[0-9a-f]{64}"$/,
    );
    runtime.removeContainer(id);
    expect(() => create('main', ['true'])).not.toThrow();
  });

  it('image defaults: no command runs the image cmd; no command anywhere fails', () => {
    const { clock, runtime, create } = setup();
    const id = create('main', []);
    runtime.startContainer(id);
    clock.advance(60_000);
    expect(runtime.findContainer(id).state).toBe('CONTAINER_RUNNING');
    expect(runtime.findContainer(id).argv).toEqual(['/bin/sleep', '2147483647']);
    const err = rpcError(() =>
      create('x', [], { image: 'podscope.local/missing-binary:1', args: [] }),
    );
    expect(err.message).not.toContain('no command specified'); // entrypoint exists in the image config
  });

  it('a unique id prefix finds the container', () => {
    const { runtime, create } = setup();
    const id = create('main', ['true']);
    expect(runtime.findContainer(id.slice(0, 12)).id).toBe(id);
  });
});

describe('sandboxes', () => {
  it('StopPodSandbox kills running containers, keeps created ones, and is idempotent', () => {
    const { runtime, sandboxId, create } = setup();
    const running = create('a', ['sleep', '3600']);
    runtime.startContainer(running);
    const created = create('b', ['sleep', '1']);
    runtime.stopPodSandbox(sandboxId);
    expect(runtime.findSandbox(sandboxId)?.state).toBe('SANDBOX_NOTREADY');
    expect(runtime.findContainer(running)).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 137,
      reason: 'Error',
    });
    expect(runtime.findContainer(created).state).toBe('CONTAINER_CREATED');
    expect(() => runtime.stopPodSandbox(sandboxId)).not.toThrow();
  });

  it('CreateContainer / StartContainer in a stopped sandbox fail like containerd 1.6', () => {
    const { runtime, sandboxId, create } = setup();
    const created = create('b', ['sleep', '1']);
    runtime.stopPodSandbox(sandboxId);
    const err = rpcError(() => create('late', ['true']));
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.message).toBe(
      `failed to get sandbox container task: no running task found: task ${sandboxId} not found: not found`,
    );
    const start = rpcError(() => runtime.startContainer(created));
    expect(start.message).toBe(`sandbox container "${sandboxId}" is not running`);
    expect(runtime.findContainer(created)).toMatchObject({ exitCode: 128, reason: 'StartError' });
  });

  it('RemovePodSandbox removes a ready sandbox and its containers; unknown ids are OK', () => {
    const { runtime, sandboxId, create } = setup();
    runtime.startContainer(create('a', ['sleep', '3600']));
    runtime.removePodSandbox(sandboxId);
    expect(runtime.sandboxes.size).toBe(0);
    expect(runtime.containers.size).toBe(0);
    expect(() => runtime.removePodSandbox(sandboxId)).not.toThrow();
    expect(rpcError(() => runtime.stopPodSandbox(sandboxId)).code).toBe(status.NOT_FOUND);
    expect(rpcError(() => runtime.podSandboxStatus(sandboxId, false)).code).toBe(status.NOT_FOUND);
  });

  it('host network sandboxes have no IP; POD ones get one unless the network is not ready', () => {
    const { runtime } = setup();
    const pod = runtime.runPodSandbox(runPodRequest(podSpec('p2', { networkMode: 'POD' })));
    expect(runtime.findSandbox(pod)?.ip).toMatch(/^10\.88\.\d+\.\d+$/);
    runtime.conditions.NetworkReady = {
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'cni plugin not initialized',
    };
    const err = rpcError(() =>
      runtime.runPodSandbox(runPodRequest(podSpec('p3', { networkMode: 'POD' }))),
    );
    expect(err.message).toMatch(
      /^failed to setup network for sandbox "[0-9a-f]{64}": cni plugin not initialized$/,
    );
    expect(() => runtime.runPodSandbox(runPodRequest(podSpec('p4')))).not.toThrow();
  });

  it('PodSandboxStatus carries container statuses only in stream mode (containerd 1.7+)', () => {
    const stream = setup('stream');
    stream.create('a', ['true']);
    expect(
      stream.runtime.podSandboxStatus(stream.sandboxId, false).containers_statuses,
    ).toHaveLength(1);
    const legacy = setup('unimplemented');
    legacy.create('a', ['true']);
    expect(
      legacy.runtime.podSandboxStatus(legacy.sandboxId, false).containers_statuses,
    ).toBeUndefined();
  });
});

describe('list version (encode cache key) and events', () => {
  it('bumps on every visible change and not on reads', () => {
    const { clock, runtime, create } = setup();
    const v0 = runtime.listVersion;
    const id = create('a', ['sh', '-c', 'sleep 1']);
    const v1 = runtime.listVersion;
    expect(v1).toBeGreaterThan(v0);
    runtime.listContainers(null);
    runtime.containerStatusResponse(id, true);
    expect(runtime.listVersion).toBe(v1);
    runtime.startContainer(id);
    const v2 = runtime.listVersion;
    expect(v2).toBeGreaterThan(v1);
    clock.advance(1000);
    expect(runtime.listVersion).toBeGreaterThan(v2);
  });

  it('emits created/started/stopped/deleted for containers and sandboxes', () => {
    const { clock, runtime, sandboxId, create } = setup();
    const seen: string[] = [];
    runtime.subscribe((e) => {
      const who = e.container_id === sandboxId ? 'sandbox' : 'container';
      seen.push(
        `${who}:${String(e.container_event_type)}:${e.pod_sandbox_status ? 'sb' : '-'}:${e.containers_statuses?.length ?? 0}`,
      );
    });
    const id = create('a', ['sh', '-c', 'sleep 1']);
    runtime.startContainer(id);
    clock.advance(1000);
    runtime.removePodSandbox(sandboxId);
    expect(seen).toEqual([
      'container:CONTAINER_CREATED_EVENT:sb:1',
      'container:CONTAINER_STARTED_EVENT:sb:1',
      'container:CONTAINER_STOPPED_EVENT:sb:1',
      'sandbox:CONTAINER_STOPPED_EVENT:sb:1',
      'container:CONTAINER_DELETED_EVENT:sb:0',
      'sandbox:CONTAINER_DELETED_EVENT:-:0',
    ]);
  });
});
