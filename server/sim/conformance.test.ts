/**
 * The behaviours critest's in-scope specs check (cri-tools v1.26.1 pkg/validate/container.go),
 * at the model level: the default command keeps running and stops on SIGTERM, ExecSync's
 * timeout kills the exec process (pgrep no longer sees it), exec into a stopped container is
 * refused as containerd refuses it, and container output lands in the CRI log file.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from './clock/clock';
import { SimRpcError } from './runtime/errors';
import { SimRuntime } from './runtime/model';
import { createRandom } from '@/lib/random';
import { createRequest, podSpec, runPodRequest } from './testing';

const E2E_BUSYBOX = 'registry.k8s.io/e2e-test-images/busybox:1.29-2';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup() {
  const clock = createClock({ mode: 'manual', start: Date.UTC(2026, 11, 1) });
  const runtime = new SimRuntime({
    name: 'n1',
    clock,
    random: createRandom('t'),
    eventsMode: 'stream',
  });
  await runtime.images.pull(E2E_BUSYBOX);
  const logDir = mkdtempSync(join(tmpdir(), 'podscope-conf-'));
  dirs.push(logDir);
  const pod = { ...podSpec('crit'), logDirectory: logDir };
  const sandboxId = runtime.runPodSandbox(runPodRequest(pod));
  const create = (name: string, command: string[], extra: object = {}) =>
    runtime.createContainer(
      createRequest(sandboxId, { name, image: E2E_BUSYBOX, command, ...extra }, pod),
    );
  return { clock, runtime, create, logDir };
}

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<SimRpcError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (err instanceof SimRpcError) return err;
    throw err;
  }
  throw new Error('expected a SimRpcError');
}

const flush = () => new Promise((r) => setImmediate(r));

describe("critest's container behaviours", () => {
  it('the default command `top` keeps running and ends on SIGTERM (143) at once', async () => {
    const { clock, runtime, create } = await setup();
    const id = create('top', ['top']);
    runtime.startContainer(id);
    clock.advance(3_600_000);
    expect(runtime.findContainer(id).state).toBe('CONTAINER_RUNNING');
    await runtime.stopContainer(id, 60);
    expect(runtime.findContainer(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 143 });
  });

  it('ExecSync timeout: DEADLINE_EXCEEDED, and the exec process is gone (pgrep)', async () => {
    const { clock, runtime, create } = await setup();
    const id = create('top', ['top']);
    runtime.startContainer(id);
    const slow = runtime.execSync(id, ['sleep', '4321'], 1);
    await flush();
    const during = runtime.execSync(id, ['sh', '-c', 'pgrep sleep || true'], 30);
    await flush();
    expect(String((await during).stdout)).toMatch(/^\d+\n$/);
    clock.advance(1000);
    const err = await rejection(slow);
    expect([err.code, err.message]).toEqual([
      4,
      'failed to exec in container: timeout 1s exceeded: context deadline exceeded',
    ]);
    const after = await runtime.execSync(id, ['sh', '-c', 'pgrep sleep || true'], 30);
    expect([String(after.stdout), String(after.stderr)]).toEqual(['', '']);
    expect(String((await runtime.execSync(id, ['pgrep', '-x', 'top'], 30)).stdout)).toBe('1\n');
  });

  it('echo -n hello through ExecSync', async () => {
    const { runtime, create } = await setup();
    const id = create('top', ['top']);
    runtime.startContainer(id);
    const out = await runtime.execSync(id, ['echo', '-n', 'hello'], 30);
    expect([out.exit_code, String(out.stdout)]).toEqual([0, 'hello']);
  });

  it('exec into a stopped container is refused: UNKNOWN "container is in CONTAINER_EXITED state"', async () => {
    const { runtime, create } = await setup();
    const id = create('top', ['top']);
    runtime.startContainer(id);
    await runtime.stopContainer(id, 0);
    const err = await rejection(runtime.execSync(id, ['echo', 'x'], 30));
    expect([err.code, err.message]).toEqual([
      2,
      'failed to exec in container: container is in CONTAINER_EXITED state',
    ]);
  });

  it('container output goes to <log_directory>/<log_path> in the CRI format; reopen follows a rename', async () => {
    const { clock, runtime, create, logDir } = await setup();
    const once = create('log', ['echo', 'hello World'], { logPath: 'once.log' });
    runtime.startContainer(once);
    clock.advance(1);
    expect(runtime.findContainer(once).state).toBe('CONTAINER_EXITED');
    expect(readFileSync(join(logDir, 'once.log'), 'utf8')).toMatch(
      /^2026-12-01T00:00:00(\.\d+)?Z stdout F hello World\n$/,
    );

    const loop = create('loop', ['sh', '-c', 'while true; do echo hello World; sleep 1; done'], {
      logPath: 'loop.log',
    });
    runtime.startContainer(loop);
    clock.advance(2500);
    const path = join(logDir, 'loop.log');
    renameSync(path, `${path}.new`);
    runtime.reopenContainerLog(loop);
    const moved = readFileSync(`${path}.new`, 'utf8');
    expect(moved.split('\n').filter(Boolean)).toHaveLength(3);
    clock.advance(2000);
    expect(readFileSync(`${path}.new`, 'utf8')).toBe(moved);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);

    await runtime.stopContainer(loop, 0);
    const err = await rejection(() => runtime.reopenContainerLog(loop));
    expect([err.code, err.message]).toEqual([2, 'container is not running']);
  });
});
