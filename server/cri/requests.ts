/**
 * Domain-level specs → CRI request messages, for Podscope's lab driver. The shapes follow what
 * the kubelet sends (pkg/kubelet/kuberuntime/kuberuntime_sandbox.go generatePodSandboxConfig,
 * kuberuntime_container.go generateContainerConfig): namespace options on both the sandbox and
 * every container (network NODE for a host-network pod, else POD; pid CONTAINER as for every v1
 * pod; ipc POD), memory limits in LinuxContainerResources, and the sandbox config repeated in
 * CreateContainer. containerd accepts a host-network pod built this way with no CNI installed.
 */
import type { CreateContainerRequest } from './generated/runtime/v1/CreateContainerRequest';
import type { LinuxContainerResources } from './generated/runtime/v1/LinuxContainerResources';
import type { NamespaceOption } from './generated/runtime/v1/NamespaceOption';
import type { PodSandboxConfig } from './generated/runtime/v1/PodSandboxConfig';
import type { RunPodSandboxRequest } from './generated/runtime/v1/RunPodSandboxRequest';
import type { ContainerResourcesSpec, ContainerSpec, SandboxSpec } from './types';

function namespaceOptions(sandbox: SandboxSpec): NamespaceOption {
  return {
    network: sandbox.networkMode === 'NODE' ? 'NODE' : 'POD',
    pid: 'CONTAINER',
    ipc: 'POD',
  };
}

/** int64 fields travel as decimal strings (see proto.ts); integers only. */
function int64(n: number | undefined): string {
  return n === undefined || !Number.isFinite(n) ? '0' : Math.trunc(n).toString();
}

export function linuxResources(r: ContainerResourcesSpec | undefined): LinuxContainerResources {
  return {
    cpu_period: int64(r?.cpuPeriod),
    cpu_quota: int64(r?.cpuQuota),
    cpu_shares: int64(r?.cpuShares),
    memory_limit_in_bytes: int64(r?.memoryLimitBytes),
    oom_score_adj: int64(r?.oomScoreAdj),
  };
}

export function buildPodSandboxConfig(spec: SandboxSpec): PodSandboxConfig {
  const hostNetwork = spec.networkMode === 'NODE';
  const config: PodSandboxConfig = {
    metadata: {
      name: spec.name,
      namespace: spec.namespace,
      uid: spec.uid,
      attempt: spec.attempt ?? 0,
    },
    // The kubelet leaves the hostname empty for host-network pods (the node's is used).
    hostname: spec.hostname ?? (hostNetwork ? '' : spec.name),
    log_directory: spec.logDirectory ?? '',
    labels: { ...spec.labels },
    annotations: { ...spec.annotations },
    linux: {
      cgroup_parent: spec.cgroupParent ?? '',
      security_context: { namespace_options: namespaceOptions(spec) },
    },
  };
  if (spec.dns) {
    config.dns_config = {
      servers: spec.dns.servers ?? [],
      searches: spec.dns.searches ?? [],
      options: spec.dns.options ?? [],
    };
  }
  if (spec.resources && config.linux) config.linux.resources = linuxResources(spec.resources);
  return config;
}

export function buildRunPodSandboxRequest(spec: SandboxSpec): RunPodSandboxRequest {
  return { config: buildPodSandboxConfig(spec), runtime_handler: spec.runtimeHandler ?? '' };
}

export function buildCreateContainerRequest(
  sandboxId: string,
  container: ContainerSpec,
  sandbox: SandboxSpec,
): CreateContainerRequest {
  return {
    pod_sandbox_id: sandboxId,
    config: {
      metadata: { name: container.name, attempt: container.attempt ?? 0 },
      image: { image: container.image },
      command: container.command ?? [],
      args: container.args ?? [],
      working_dir: container.workingDir ?? '',
      envs: Object.entries(container.env ?? {}).map(([key, value]) => ({ key, value })),
      labels: { ...container.labels },
      annotations: { ...container.annotations },
      log_path: container.logPath ?? '',
      ...(container.mounts?.length
        ? {
            mounts: container.mounts.map((m) => ({
              container_path: m.containerPath,
              host_path: m.hostPath,
              readonly: m.readonly ?? false,
            })),
          }
        : {}),
      linux: {
        resources: linuxResources(container.resources),
        security_context: {
          namespace_options: namespaceOptions(sandbox),
          privileged: container.privileged ?? false,
          ...(container.runAsUser !== undefined
            ? { run_as_user: { value: String(container.runAsUser) } }
            : {}),
          ...(container.runAsGroup !== undefined
            ? { run_as_group: { value: String(container.runAsGroup) } }
            : {}),
          ...(container.readonlyRootfs ? { readonly_rootfs: true } : {}),
          ...(container.noNewPrivs ? { no_new_privs: true } : {}),
          ...(container.dropCapabilities?.length
            ? { capabilities: { drop_capabilities: container.dropCapabilities } }
            : {}),
        },
      },
    },
    sandbox_config: buildPodSandboxConfig(sandbox),
  };
}
