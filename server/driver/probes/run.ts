/**
 * One probe run and what the kubelet says about it.
 *
 * Ports (kubernetes/kubernetes, master as stored — the ProberAction era of
 * pkg/kubelet/prober/prober.go; pkg/probe/exec/exec.go 05c351a9 with the ExecProbeTimeout
 * "timeoutErr.Error() as the stdout" fix; pkg/probe/http/http.go; pkg/probe/tcp/tcp.go;
 * the CRI client's ExecSync in pkg/kubelet/cri/remote/remote_runtime.go 022347fb):
 *
 * - exec: ExecSync(container, command with `$(VAR)` expanded from the container's literal env,
 *   timeoutSeconds). Exit 0 → success, other exit → failure; the output is stdout then stderr.
 *   A DEADLINE_EXCEEDED answer is the probe timing out: failure with `command "…" timed out`.
 *   Any other error (container gone, runtime without ExecSync) is an error: the result is
 *   thrown away after the kubelet's 3 tries (`maxProbeRetries`).
 * - httpGet: GET scheme://host:port/path (host defaults to the pod IP); 200–399 → success
 *   (3xx: a warning, `Probe terminated redirects`); other status → failure `HTTP probe failed
 *   with statuscode: N`; a connection error or timeout → failure with the dial error.
 * - tcpSocket: connect to host:port → success, else failure with the dial error.
 * - grpc and an empty probe: errors (`missing probe handler for …`); the driver also lists grpc
 *   among a pod's unsupported fields.
 *
 * Event texts (prober.probe): `Liveness probe failed: <output>` (Warning Unhealthy),
 * `Readiness probe errored and resulted in unknown state: <error>`, `Startup probe warning: …`
 * (Warning ProbeWarning).
 */
import type { V1Container, V1EnvVar, V1Probe } from '@kubernetes/client-node';
import type { DriverRuntime } from '../runtime';
import { rpcErrorText, runtimeErrorInfo } from '../runtime';
import { type ProbeNetwork, ProbeNetworkError, hostPort } from './network';
import { probeTypeName, type ProbeType } from './spec';

export const MAX_PROBE_RETRIES = 3;

/** pkg/probe Result. */
export type ProbeRunResult = 'success' | 'warning' | 'failure' | 'unknown';

export interface ProbeRun {
  result: ProbeRunResult;
  output: string;
  /** Set when the probe could not be run at all; the worker throws such a result away. */
  error?: string;
}

export interface ProbeTarget {
  runtime: DriverRuntime;
  network: ProbeNetwork;
  /** "name_namespace(uid)", for the kubelet's messages. */
  podName: string;
  /** The pod IP, '' when the runtime gave none. */
  podIP: string;
  container: V1Container;
  containerId: string;
}

/** kubecontainer.ExpandContainerCommandOnlyStatic: `$(NAME)` from literal env values, `$$` escapes. */
export function expandCommand(command: readonly string[], env: readonly V1EnvVar[] = []): string[] {
  const values = new Map<string, string>();
  for (const e of env) if (e.value !== undefined && !e.valueFrom) values.set(e.name, e.value);
  return command.map((arg) =>
    arg.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m: string, name?: string) => {
      if (m === '$$') return '$';
      return name !== undefined && values.has(name) ? (values.get(name) ?? '') : m;
    }),
  );
}

/** probe.ResolveContainerPort: a number, a numeric string, or the name of a container port. */
export function resolvePort(port: number | string | undefined, container: V1Container): number {
  let n: number | undefined;
  if (typeof port === 'number') n = port;
  else if (typeof port === 'string') {
    const named = container.ports?.find((p) => p.name === port);
    n = named ? named.containerPort : /^\d+$/.test(port) ? Number(port) : undefined;
    if (n === undefined) throw new Error(`unable to find port ${JSON.stringify(port)}`);
  }
  if (n === undefined || !Number.isInteger(n) || n <= 0 || n >= 65536) {
    throw new Error(`invalid port number: ${String(n ?? port)}`);
  }
  return n;
}

async function execAction(probe: V1Probe, t: ProbeTarget): Promise<ProbeRun> {
  const command = expandCommand(probe.exec?.command ?? [], t.container.env);
  try {
    const r = await t.runtime.execSync(t.containerId, command, probe.timeoutSeconds ?? 1);
    const output = Buffer.concat([r.stdout, r.stderr])
      .subarray(0, 10 * 1024)
      .toString('utf8');
    return { result: r.exitCode === 0 ? 'success' : 'failure', output };
  } catch (err) {
    if (runtimeErrorInfo(err).codeName === 'DEADLINE_EXCEEDED') {
      return {
        result: 'failure',
        output: `command ${JSON.stringify(command.join(' '))} timed out`,
      };
    }
    return { result: 'unknown', output: '', error: rpcErrorText(err) };
  }
}

async function httpAction(probe: V1Probe, t: ProbeTarget): Promise<ProbeRun> {
  const get = probe.httpGet;
  if (!get) return { result: 'unknown', output: '', error: 'no httpGet handler' };
  let port: number;
  try {
    port = resolvePort(get.port, t.container);
  } catch (err) {
    return { result: 'unknown', output: '', error: (err as Error).message };
  }
  const host = get.host ?? t.podIP;
  if (!host) return { result: 'unknown', output: '', error: 'the pod has no IP to probe' };
  const scheme = (get.scheme ?? 'HTTP').toLowerCase() === 'https' ? 'https' : 'http';
  const path = get.path ? (get.path.startsWith('/') ? get.path : `/${get.path}`) : '/';
  const headers: Record<string, string> = {};
  for (const h of get.httpHeaders ?? []) headers[h.name] = h.value;
  try {
    const res = await t.network.httpGet({
      scheme,
      host,
      port,
      path,
      headers,
      timeoutMs: (probe.timeoutSeconds ?? 1) * 1000,
    });
    if (res.status >= 200 && res.status < 400) {
      if (res.status >= 300) {
        return {
          result: 'warning',
          output: `Probe terminated redirects, Response body: ${res.body}`,
        };
      }
      return { result: 'success', output: res.body };
    }
    return { result: 'failure', output: `HTTP probe failed with statuscode: ${res.status}` };
  } catch (err) {
    if (err instanceof ProbeNetworkError) {
      const url = `${scheme}://${hostPort(host, port)}${path}`;
      const text = err.message.startsWith('Get "') ? err.message : `Get "${url}": ${err.message}`;
      return { result: 'failure', output: text };
    }
    return {
      result: 'unknown',
      output: '',
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

async function tcpAction(probe: V1Probe, t: ProbeTarget): Promise<ProbeRun> {
  const sock = probe.tcpSocket;
  if (!sock) return { result: 'unknown', output: '', error: 'no tcpSocket handler' };
  let port: number;
  try {
    port = resolvePort(sock.port, t.container);
  } catch (err) {
    return { result: 'unknown', output: '', error: (err as Error).message };
  }
  const host = sock.host ?? t.podIP;
  if (!host) return { result: 'unknown', output: '', error: 'the pod has no IP to probe' };
  try {
    await t.network.tcpConnect(host, port, (probe.timeoutSeconds ?? 1) * 1000);
    return { result: 'success', output: '' };
  } catch (err) {
    if (err instanceof ProbeNetworkError) return { result: 'failure', output: err.message };
    return {
      result: 'unknown',
      output: '',
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** One attempt of the probe's handler. */
export function runProbeAction(probe: V1Probe, t: ProbeTarget): Promise<ProbeRun> {
  if (probe.exec) return execAction(probe, t);
  if (probe.httpGet) return httpAction(probe, t);
  if (probe.tcpSocket) return tcpAction(probe, t);
  return Promise.resolve({
    result: 'unknown',
    output: '',
    error: `missing probe handler for ${t.podName}:${t.container.name}`,
  });
}

/** runProbeWithRetries: up to 3 attempts while the handler errors; the last one counts. */
export async function runProbeWithRetries(probe: V1Probe, t: ProbeTarget): Promise<ProbeRun> {
  let last: ProbeRun = { result: 'unknown', output: '' };
  for (let i = 0; i < MAX_PROBE_RETRIES; i++) {
    last = await runProbeAction(probe, t);
    if (last.error === undefined) return last;
  }
  return last;
}

/** What prober.probe records: the event (reason, message) for this run, if any. */
export function probeEvent(
  type: ProbeType,
  run: ProbeRun,
): { reason: 'Unhealthy' | 'ProbeWarning'; message: string } | undefined {
  const name = probeTypeName(type);
  if (run.error !== undefined) {
    return {
      reason: 'Unhealthy',
      message: `${name} probe errored and resulted in ${run.result} state: ${run.error}`,
    };
  }
  if (run.result === 'failure')
    return { reason: 'Unhealthy', message: `${name} probe failed: ${run.output}` };
  if (run.result === 'warning')
    return { reason: 'ProbeWarning', message: `${name} probe warning: ${run.output}` };
  return undefined;
}

/** The results-manager value of a run (prober.probe's switch): warnings count as success. */
export function resultOf(run: ProbeRun): 'success' | 'failure' {
  return run.error === undefined && (run.result === 'success' || run.result === 'warning')
    ? 'success'
    : 'failure';
}
