/**
 * Request builders for simulator tests: a kubelet-shaped host-network pod and containers, as
 * CRI request objects (the decoded `__Output` form the runtime receives from the wire).
 */
import { criDefinitions } from '@/server/cri/proto';
import { buildCreateContainerRequest, buildRunPodSandboxRequest } from '@/server/cri/requests';
import type { ContainerSpec, SandboxSpec } from '@/server/cri/types';
import type { CreateContainerRequest__Output } from '@/server/cri/generated/runtime/v1/CreateContainerRequest';
import type { RunPodSandboxRequest__Output } from '@/server/cri/generated/runtime/v1/RunPodSandboxRequest';

export function podSpec(name: string, overrides: Partial<SandboxSpec> = {}): SandboxSpec {
  return { name, namespace: 'default', uid: `uid-${name}`, networkMode: 'NODE', ...overrides };
}

/** Encodes and decodes through the real proto, so defaults are exactly what the server sees. */
export function runPodRequest(spec: SandboxSpec): RunPodSandboxRequest__Output {
  const def = criDefinitions().runtime.RunPodSandbox;
  return def.requestDeserialize(def.requestSerialize(buildRunPodSandboxRequest(spec)));
}

export function createRequest(
  sandboxId: string,
  container: ContainerSpec,
  sandbox: SandboxSpec,
): CreateContainerRequest__Output {
  const def = criDefinitions().runtime.CreateContainer;
  return def.requestDeserialize(
    def.requestSerialize(buildCreateContainerRequest(sandboxId, container, sandbox)),
  );
}
