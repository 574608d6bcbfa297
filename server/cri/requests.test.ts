import { describe, expect, it } from 'vitest';
import { criDefinitions } from './proto';
import { buildCreateContainerRequest, buildRunPodSandboxRequest } from './requests';
import type { SandboxSpec } from './types';

const hostNetPod: SandboxSpec = {
  name: 'web',
  namespace: 'default',
  uid: 'uid-1',
  networkMode: 'NODE',
  labels: { 'io.kubernetes.pod.uid': 'uid-1' },
};

describe('request builders', () => {
  it('builds a host-network RunPodSandbox the kubelet way', () => {
    const req = buildRunPodSandboxRequest(hostNetPod);
    expect(req.config?.hostname).toBe('');
    expect(req.config?.linux?.security_context?.namespace_options).toEqual({
      network: 'NODE',
      pid: 'CONTAINER',
      ipc: 'POD',
    });
    expect(buildRunPodSandboxRequest({ ...hostNetPod, networkMode: 'POD' }).config?.hostname).toBe(
      'web',
    );
  });

  it('encodes memory limits as int64 and survives a proto round trip', () => {
    const req = buildCreateContainerRequest(
      'sb-1',
      {
        name: 'app',
        image: 'podscope.local/busybox:1',
        command: ['sh', '-c', 'sleep 1'],
        env: { A: '1' },
        resources: { memoryLimitBytes: 32 * 1024 * 1024 },
      },
      hostNetPod,
    );
    const def = criDefinitions().runtime.CreateContainer;
    const decoded = def.requestDeserialize(def.requestSerialize(req));
    expect(decoded.pod_sandbox_id).toBe('sb-1');
    expect(decoded.config?.linux?.resources?.memory_limit_in_bytes).toBe('33554432');
    expect(decoded.config?.linux?.security_context?.namespace_options?.network).toBe('NODE');
    expect(decoded.config?.envs).toEqual([{ key: 'A', value: '1' }]);
    expect(decoded.sandbox_config?.metadata?.uid).toBe('uid-1');
  });
});
