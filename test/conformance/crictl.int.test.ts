/**
 * crictl against the simulated node shows what it shows against real containerd 1.6 for the same
 * pods: one kubelet-like host-network pod with a running and an exited container, created the
 * same way on both (test/contract's kubelet sandbox and container configs), then `crictl ps -a`,
 * `crictl pods`, `crictl inspect` and `crictl stats` (JSON output) on each. Compared: the shape
 * (every key path, and value type), and every value that does not differ by nature — ids,
 * digests, times, figures and containerd's own verbose info aside.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CriClient } from '@/server/cri';
import { skipContainerd } from '../containerd/harness';
import { kubeletContainer, runPod, type Target } from '../contract/scenario';
import { startContainerdTarget, startSimTarget } from '../contract/targets';
import { skipWithoutTool } from '../external-tool';
import { critoolsDir, unpackCritools, type Critools } from './critools';

const skip =
  skipContainerd('crictl output: simulator vs containerd') ||
  skipWithoutTool('crictl output: simulator vs containerd', critoolsDir);

interface Side {
  target: Target;
  cri: CriClient;
  running: string;
  exited: string;
  sandbox: string;
}

let tools: Critools | undefined;
const sides: Partial<Record<'sim' | 'containerd', Side>> = {};

function crictl(endpoint: string, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      tools!.crictl,
      ['--runtime-endpoint', endpoint, '--image-endpoint', endpoint, '--timeout', '10s', ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`crictl ${args.join(' ')}: ${stderr || err.message}`));
        else resolve(JSON.parse(stdout) as unknown);
      },
    );
  });
}

async function scenario(target: Target): Promise<Side> {
  const cri = new CriClient(target.endpoint, { timeoutMs: 30_000 });
  const pod = await runPod(cri, 'crictl-web', target.logRoot);
  const running = await cri.createContainer(
    pod.id,
    kubeletContainer(pod.spec, 'app', ['sleep', '3600']),
    pod.spec,
  );
  await cri.startContainer(running);
  const exited = await cri.createContainer(
    pod.id,
    kubeletContainer(pod.spec, 'job', ['sh', '-c', 'exit 3']),
    pod.spec,
  );
  await cri.startContainer(exited);
  for (let i = 0; i < 100; i++) {
    if ((await cri.containerStatus(exited)).state === 'exited') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { target, cri, running, exited, sandbox: pod.id };
}

beforeAll(async () => {
  if (skip) return;
  tools = unpackCritools();
  const [s, c] = await Promise.allSettled([startSimTarget(), startContainerdTarget()]);
  if (s.status === 'fulfilled') sides.sim = await scenario(s.value);
  if (c.status === 'fulfilled') sides.containerd = await scenario(c.value);
  if (s.status === 'rejected') throw s.reason;
  if (c.status === 'rejected') throw c.reason;
});

afterAll(async () => {
  for (const side of Object.values(sides)) {
    side.cri.close();
    await side.target.stop();
  }
  tools?.remove();
});

/** Every key path with its JSON type; array elements merged, so order and count do not matter. */
export function shape(value: unknown, path = '$', out = new Map<string, Set<string>>()) {
  const add = (p: string, t: string) => {
    const set = out.get(p) ?? new Set<string>();
    set.add(t);
    out.set(p, set);
  };
  if (Array.isArray(value)) {
    add(path, 'array');
    for (const v of value) shape(v, `${path}[]`, out);
  } else if (value !== null && typeof value === 'object') {
    add(path, 'object');
    for (const [k, v] of Object.entries(value)) shape(v, `${path}.${k}`, out);
  } else add(path, value === null ? 'null' : typeof value);
  return out;
}

const flat = (m: Map<string, Set<string>>) =>
  Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort().join('|')]));

/** Values that differ by nature (ids, uids, digests, paths of the runtime's own folders) masked. */
function masked(side: Side, value: unknown): unknown {
  const uid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const text = JSON.stringify(value)
    .replaceAll(side.target.logRoot, '<logs>')
    .replace(/[0-9a-f]{64}/g, '<id>')
    .replace(uid, '<uid>');
  return JSON.parse(text) as unknown;
}

type Json = Record<string, unknown>;
const byName = (list: unknown) =>
  [...(list as Json[])].sort((a, b) =>
    String((a.metadata as Json).name).localeCompare(String((b.metadata as Json).name)),
  );
const pick = (o: Json, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

async function onBoth(args: (side: Side) => string[]) {
  const sim = sides.sim!;
  const ctrd = sides.containerd!;
  return {
    sim: (await crictl(sim.target.endpoint, args(sim))) as Json,
    ctrd: (await crictl(ctrd.target.endpoint, args(ctrd))) as Json,
  };
}

describe.skipIf(skip)('crictl output: simulator vs containerd 1.6', () => {
  it('crictl ps -a: same fields, same containers', async () => {
    const { sim, ctrd } = await onBoth(() => ['ps', '-a', '-o', 'json']);
    expect(flat(shape(sim))).toEqual(flat(shape(ctrd)));
    const view = (side: Side, out: Json) =>
      byName(out.containers).map((c) =>
        masked(side, pick(c, ['metadata', 'image', 'imageRef', 'state', 'labels', 'annotations'])),
      );
    expect(view(sides.sim!, sim)).toEqual(view(sides.containerd!, ctrd));
  });

  it('crictl pods: same fields, same pod', async () => {
    const { sim, ctrd } = await onBoth(() => ['pods', '-o', 'json']);
    expect(flat(shape(sim))).toEqual(flat(shape(ctrd)));
    const view = (side: Side, out: Json) =>
      (out.items as Json[]).map((p) =>
        masked(side, pick(p, ['metadata', 'state', 'labels', 'annotations', 'runtimeHandler'])),
      );
    expect(view(sides.sim!, sim)).toEqual(view(sides.containerd!, ctrd));
  });

  it.each([
    ['running', (s: Side) => s.running],
    ['exited', (s: Side) => s.exited],
  ])('crictl inspect (%s container): same status, containerd-shaped info', async (_, id) => {
    const { sim, ctrd } = await onBoth((s) => ['inspect', id(s)]);
    expect(flat(shape(sim.status))).toEqual(flat(shape(ctrd.status)));
    const status = (side: Side, out: Json) =>
      masked(
        side,
        pick(out.status as Json, [
          'metadata',
          'state',
          'exitCode',
          'image',
          'imageRef',
          'reason',
          'message',
          'labels',
          'annotations',
          'mounts',
          'logPath',
        ]),
      );
    expect(status(sides.sim!, sim)).toEqual(status(sides.containerd!, ctrd));
    // The verbose info: containerd's layout, key for key; the ContainerConfig it was created with.
    const simInfo = sim.info as Json;
    const ctrdInfo = ctrd.info as Json;
    expect(Object.keys(simInfo)).toEqual(Object.keys(ctrdInfo));
    expect(flat(shape(simInfo))).toEqual(flat(shape(ctrdInfo)));
    expect(masked(sides.sim!, simInfo.config)).toEqual(masked(sides.containerd!, ctrdInfo.config));
    const spec = (i: Json) => i.runtimeSpec as Json;
    expect((spec(simInfo).process as Json).args).toEqual((spec(ctrdInfo).process as Json).args);
    expect(masked(sides.sim!, spec(simInfo).annotations)).toEqual(
      masked(sides.containerd!, spec(ctrdInfo).annotations),
    );
    expect([simInfo.pid === 0, simInfo.removing]).toEqual([ctrdInfo.pid === 0, ctrdInfo.removing]);
  });

  it('crictl stats -a: same fields; CPU and memory for the running container only', async () => {
    const { sim, ctrd } = await onBoth(() => ['stats', '-a', '-o', 'json']);
    expect(flat(shape(sim))).toEqual(flat(shape(ctrd)));
    const view = (out: Json) =>
      (out.stats as Json[])
        .map((s) => ({
          name: ((s.attributes as Json).metadata as Json).name,
          cpu: s.cpu !== null,
          memory: s.memory !== null,
          writableLayer: s.writableLayer !== null,
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(view(sim)).toEqual(view(ctrd));
  });
});
