import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeOption, processTuning } from './process-tuning';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Env = { name: string; value?: string; valueFrom?: unknown }[];

/** A checkout holding only deploy/kubernetes with this agent and console container env. */
function checkout(agent: Env, console: Env = []): string {
  const root = mkdtempSync(join(tmpdir(), 'podscope-process-tuning-'));
  dirs.push(root);
  const k = join(root, 'deploy', 'kubernetes');
  mkdirSync(k, { recursive: true });
  writeFileSync(join(k, 'kustomization.yaml'), 'resources:\n  - agent.yaml\n  - console.yaml\n');
  const workload = (kind: string, name: string, container: string, env: Env) =>
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind,
      metadata: { name, namespace: 'podscope' },
      spec: { template: { spec: { containers: [{ name: container, image: 'x', env }] } } },
    });
  writeFileSync(join(k, 'agent.yaml'), workload('DaemonSet', 'podscope-agent', 'agent', agent));
  writeFileSync(
    join(k, 'console.yaml'),
    workload('Deployment', 'podscope-console', 'console', console),
  );
  return root;
}

describe('processTuning', () => {
  it("returns the agent container's NODE_OPTIONS and GLIBC_TUNABLES, not Podscope's own variables", () => {
    const root = checkout([
      { name: 'PODSCOPE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'PODSCOPE_CRI', value: 'unix:///run/podscope/cri.sock' },
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=96' },
      { name: 'GLIBC_TUNABLES', value: 'glibc.malloc.trim_threshold=131072' },
    ]);
    expect(processTuning(root, 'agent')).toEqual({
      NODE_OPTIONS: '--max-old-space-size=96',
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=131072',
    });
  });

  it("returns the console container's, apart from the agent's", () => {
    const root = checkout(
      [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=96' }],
      [
        { name: 'PODSCOPE_NATS_URL', value: 'nats://nats:4222' },
        { name: 'NODE_OPTIONS', value: '--v8-pool-size=1' },
      ],
    );
    expect(processTuning(root, 'console')).toEqual({ NODE_OPTIONS: '--v8-pool-size=1' });
  });

  it('leaves out what the manifest does not set', () => {
    expect(
      processTuning(checkout([{ name: 'NODE_OPTIONS', value: '--jitless' }]), 'agent'),
    ).toEqual({ NODE_OPTIONS: '--jitless' });
    expect(processTuning(checkout([]), 'agent')).toEqual({});
    expect(processTuning(checkout([]), 'console')).toEqual({});
  });

  it('says which workload the manifests lack', () => {
    const root = mkdtempSync(join(tmpdir(), 'podscope-process-tuning-'));
    dirs.push(root);
    mkdirSync(join(root, 'deploy', 'kubernetes'), { recursive: true });
    writeFileSync(join(root, 'deploy', 'kubernetes', 'kustomization.yaml'), 'resources: []\n');
    expect(() => processTuning(root, 'console')).toThrow(
      'deploy/kubernetes renders no podscope-console Deployment with a console container',
    );
  });

  it('reads the repository manifests (what the benchmark runs the agent and console with)', () => {
    const agent = processTuning(process.cwd(), 'agent');
    expect(agent.NODE_OPTIONS).toMatch(/--max-old-space-size=\d+/);
    // malloc's mmap and trim thresholds pinned at glibc's initial 128 KiB (daemonset.yaml says why).
    expect(agent.GLIBC_TUNABLES?.split(':').sort()).toEqual([
      'glibc.malloc.mmap_threshold=131072',
      'glibc.malloc.trim_threshold=131072',
    ]);
    // One V8 worker thread beside the console's main thread (deployment.yaml says why).
    expect(nodeOption(processTuning(process.cwd(), 'console').NODE_OPTIONS, 'v8-pool-size')).toBe(
      '--v8-pool-size=1',
    );
  });
});

describe('nodeOption', () => {
  it('finds one option among others, by its whole name', () => {
    const opts = '--max-old-space-size=512  --v8-pool-size=1 --jitless';
    expect(nodeOption(opts, 'v8-pool-size')).toBe('--v8-pool-size=1');
    expect(nodeOption(opts, 'jitless')).toBe('--jitless');
    expect(nodeOption(opts, 'max-old-space')).toBeUndefined();
    expect(nodeOption(undefined, 'v8-pool-size')).toBeUndefined();
  });
});
