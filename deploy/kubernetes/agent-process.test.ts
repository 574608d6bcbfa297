import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentProcessEnv } from './agent-process';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout holding only deploy/kubernetes with this agent container env. */
function checkout(env: { name: string; value?: string; valueFrom?: unknown }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'podscope-agent-process-'));
  dirs.push(root);
  const k = join(root, 'deploy', 'kubernetes');
  mkdirSync(k, { recursive: true });
  writeFileSync(join(k, 'kustomization.yaml'), 'resources:\n  - agent.yaml\n');
  writeFileSync(
    join(k, 'agent.yaml'),
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'podscope-agent', namespace: 'podscope-agent' },
      spec: { template: { spec: { containers: [{ name: 'agent', image: 'x', env }] } } },
    }),
  );
  return root;
}

describe('agentProcessEnv', () => {
  it("returns the agent container's NODE_OPTIONS and GLIBC_TUNABLES, not Podscope's own variables", () => {
    const root = checkout([
      { name: 'PODSCOPE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      { name: 'PODSCOPE_CRI', value: 'unix:///run/podscope/cri.sock' },
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=96' },
      { name: 'GLIBC_TUNABLES', value: 'glibc.malloc.trim_threshold=131072' },
    ]);
    expect(agentProcessEnv(root)).toEqual({
      NODE_OPTIONS: '--max-old-space-size=96',
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=131072',
    });
  });

  it('leaves out what the manifest does not set', () => {
    expect(agentProcessEnv(checkout([{ name: 'NODE_OPTIONS', value: '--jitless' }]))).toEqual({
      NODE_OPTIONS: '--jitless',
    });
    expect(agentProcessEnv(checkout([]))).toEqual({});
  });

  it('reads the repository manifests (what the benchmark runs the agent with)', () => {
    const env = agentProcessEnv(process.cwd());
    expect(env.NODE_OPTIONS).toMatch(/--max-old-space-size=\d+/);
    // malloc's mmap and trim thresholds pinned at glibc's initial 128 KiB (daemonset.yaml says why).
    expect(env.GLIBC_TUNABLES?.split(':').sort()).toEqual([
      'glibc.malloc.mmap_threshold=131072',
      'glibc.malloc.trim_threshold=131072',
    ]);
  });
});
