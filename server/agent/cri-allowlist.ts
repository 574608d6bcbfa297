/**
 * The CRI methods an agent may call. The CRI is an admin interface with no authorisation of its
 * own: whoever reaches the socket can start privileged containers, exec into them, remove them.
 * The agent only observes, so its gRPC client carries an interceptor that refuses — before
 * anything is written to the socket — every method not listed here, with PERMISSION_DENIED.
 * Exec, attach, port-forward, create/start/stop/remove and every image method are absent on
 * purpose. agent.int.test.ts proves against a real simulated runtime that nothing else arrives.
 */
import { InterceptingCall, Metadata, status, type Interceptor } from '@grpc/grpc-js';
import { Counter, type Registry } from '@/server/metrics/registry';

const RUNTIME = '/runtime.v1.RuntimeService/';

/** Read-only methods: List*, *Status, stats, Version, GetContainerEvents. */
export const AGENT_CRI_METHODS: readonly string[] = [
  'Version',
  'Status',
  'ListPodSandbox',
  'PodSandboxStatus',
  'ListContainers',
  'ContainerStatus',
  'GetContainerEvents',
  'ContainerStats',
  'ListContainerStats',
  'PodSandboxStats',
  'ListPodSandboxStats',
  'ListMetricDescriptors',
  'ListPodSandboxMetrics',
].map((m) => RUNTIME + m);

const ALLOWED = new Set(AGENT_CRI_METHODS);

export function isAllowedCriMethod(path: string): boolean {
  return ALLOWED.has(path);
}

/** Counts refused calls per method (`podscope_agent_cri_refused_total`). */
export function criAllowList(refused: Counter<'method'>, log: (line: string) => void): Interceptor {
  return (options, nextCall) => {
    const path = options.method_definition.path;
    if (ALLOWED.has(path)) return new InterceptingCall(nextCall(options));
    return new InterceptingCall(nextCall(options), {
      start(_metadata, listener) {
        refused.inc({ method: path });
        log(`agent: refused CRI call ${path}: not on the agent's read-only allow-list`);
        setImmediate(() =>
          listener.onReceiveStatus({
            code: status.PERMISSION_DENIED,
            details: `${path} is not on the Podscope agent's read-only CRI allow-list`,
            metadata: new Metadata(),
          }),
        );
      },
      sendMessage() {},
      halfClose() {},
    });
  };
}

export function criRefusedCounter(registers: Registry[] = []): Counter<'method'> {
  return new Counter({
    name: 'podscope_agent_cri_refused_total',
    help: 'CRI calls refused by the agent because the method is not on its read-only allow-list.',
    labelNames: ['method'] as const,
    registers,
  });
}
