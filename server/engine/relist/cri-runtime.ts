/** The engine's RuntimeClient over gRPC: server/cri's CriClient, narrowed to what the engine reads. */
import { CriClient, type CriClientOptions } from '@/server/cri/client';
import type { ContainerEventNotice, RuntimeClient } from './runtime-client';

export function criRuntime(endpoint: string, options: CriClientOptions = {}): RuntimeClient {
  const client = new CriClient(endpoint, options);
  return {
    endpoint: client.endpoint,
    version: () => client.version(),
    status: async () => {
      const s = await client.status({ verbose: true });
      return { conditions: s.conditions, ...(s.node ? { node: s.node } : {}) };
    },
    listPodSandbox: () => client.listPodSandbox(),
    listContainers: () => client.listContainers(),
    podSandboxStatus: async (id) => (await client.podSandboxStatus(id)).sandbox,
    containerStatus: (id, sandboxId) => client.containerStatus(id, { sandboxId }),
    containerEvents: (signal) => notices(client, signal),
    listContainerStats: async () =>
      (await client.listContainerStats()).map((s) => ({
        id: s.id,
        podUid: s.labels['io.kubernetes.pod.uid'] ?? '',
        container: s.name,
        ...(s.cpu?.timestamp !== undefined ? { cpuAt: s.cpu.timestamp } : {}),
        ...(s.cpu?.usageCoreNanoSeconds !== undefined
          ? { usageCoreNanoSeconds: s.cpu.usageCoreNanoSeconds }
          : {}),
        ...(s.memory?.workingSetBytes !== undefined
          ? { workingSetBytes: s.memory.workingSetBytes }
          : {}),
      })),
    close: () => client.close(),
  };
}

async function* notices(
  client: CriClient,
  signal: AbortSignal,
): AsyncGenerator<ContainerEventNotice> {
  for await (const e of client.getContainerEvents(signal)) {
    if (e.kind === 'unknown') continue;
    yield {
      containerId: e.containerId,
      type: e.kind,
      createdAt: e.createdAt,
      ...(e.sandbox ? { podUid: e.sandbox.uid } : {}),
    };
  }
}
