/**
 * The postStart hook, run as the kubelet runs it right after StartContainer.
 *
 * Ports (kubernetes/kubernetes): startContainer step 4 in pkg/kubelet/kuberuntime/
 * kuberuntime_container.go (master as stored): on a failed hook the FailedPostStartHook event
 * carries the handler's message, the container is killed (reason FailedPostStartHook, the pod's
 * grace period, its preStop hook included) and the start fails with PostStartHookError — the
 * reason cache makes that the container's waiting reason until the next start, which goes
 * through the crash-loop back-off. Handler texts from pkg/kubelet/lifecycle/handlers.go
 * (00bdb3fa; the exec wording is unchanged on master):
 * `Exec lifecycle hook ([cmd …]) for Container "app" in Pod "web_shop(uid)" failed - error: …, message: "…"`.
 *
 * Handlers: `exec` through ExecSync without a timeout (the kubelet passes 0), the error being
 * the CRI client's `command 'cmd …' exited with N: <stderr>`; `sleep` on the driver's clock;
 * `httpGet` through the driver's ProbeNetwork. `tcpSocket` is not a valid hook (the API keeps it
 * only for compatibility): the hook fails with `Cannot run handler: …`.
 */
import type { V1Container, V1LifecycleHandler, V1Pod } from '@kubernetes/client-node';
import type { DriverClock } from '../clock';
import { clockDelay } from './kill';
import type { ProbeNetwork } from '../probes/network';
import { resolvePort } from '../probes/run';
import type { DriverRuntime } from '../runtime';
import { rpcErrorText, runtimeErrorInfo } from '../runtime';
import { formatPod } from '../spec/spec';

export const ErrPostStartHook = 'PostStartHookError';

export type HookNote =
  | { type: 'postStartStarted'; container: string; containerId: string; handler: string }
  | { type: 'postStartFinished'; container: string; containerId: string; durationMs: number }
  | {
      type: 'postStartFailed';
      container: string;
      containerId: string;
      durationMs: number;
      /** The FailedPostStartHook event's message. */
      message: string;
    };

export interface HookContext {
  runtime: DriverRuntime;
  clock: DriverClock;
  network: ProbeNetwork;
  podIP: string;
}

/** Go's %v of a []string. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** Go's %q of a string (close enough for the texts hooks produce). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

function handlerKind(h: V1LifecycleHandler): string {
  if (h.exec) return 'exec';
  if (h.httpGet) return 'httpGet';
  if (h.sleep) return 'sleep';
  if (h.tcpSocket) return 'tcpSocket';
  return 'none';
}

/** HandlerRunner.Run: '' when the hook succeeded, else the message the kubelet records. */
export async function runLifecycleHandler(
  ctx: HookContext,
  pod: V1Pod,
  container: V1Container,
  containerId: string,
  handler: V1LifecycleHandler,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (handler.exec) {
    const cmd = handler.exec.command ?? [];
    try {
      const r = await ctx.runtime.execSync(containerId, cmd, 0);
      if (r.exitCode === 0) return { ok: true };
      const output = Buffer.concat([r.stdout, r.stderr]).toString('utf8');
      const err = `command '${cmd.join(' ')}' exited with ${r.exitCode}: ${r.stderr.toString('utf8')}`;
      return {
        ok: false,
        message: `Exec lifecycle hook (${goList(cmd)}) for Container ${goQuote(container.name)} in Pod ${goQuote(formatPod(pod))} failed - error: ${err}, message: ${goQuote(output)}`,
      };
    } catch (e) {
      const info = runtimeErrorInfo(e);
      const err =
        info.codeName === 'DEADLINE_EXCEEDED'
          ? `command ${goQuote(cmd.join(' '))} timed out`
          : rpcErrorText(e);
      return {
        ok: false,
        message: `Exec lifecycle hook (${goList(cmd)}) for Container ${goQuote(container.name)} in Pod ${goQuote(formatPod(pod))} failed - error: ${err}, message: ""`,
      };
    }
  }
  if (handler.sleep) {
    await clockDelay(ctx.clock, Math.max(0, handler.sleep.seconds) * 1000);
    return { ok: true };
  }
  if (handler.httpGet) {
    const get = handler.httpGet;
    const path = get.path ?? '';
    const fail = (err: string, body = '') => ({
      ok: false as const,
      message: `HTTP lifecycle hook (${path}) for Container ${goQuote(container.name)} in Pod ${goQuote(formatPod(pod))} failed - error: ${err}, message: ${goQuote(body)}`,
    });
    let port: number;
    try {
      port =
        typeof get.port === 'string' && get.port === '' ? 80 : resolvePort(get.port, container);
    } catch (err) {
      return fail((err as Error).message);
    }
    const host = get.host ?? ctx.podIP;
    if (!host) return fail('failed to find networking container: the pod has no IP');
    const headers: Record<string, string> = {};
    for (const h of get.httpHeaders ?? []) headers[h.name] = h.value;
    try {
      const res = await ctx.network.httpGet({
        scheme: (get.scheme ?? 'HTTP').toLowerCase() === 'https' ? 'https' : 'http',
        host,
        port,
        path: path.startsWith('/') ? path : `/${path}`,
        headers,
        timeoutMs: 30_000,
      });
      if (res.status >= 200 && res.status < 400) return { ok: true };
      return fail(`HTTP lifecycle hook (${path}) failed with statuscode: ${res.status}`, res.body);
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
  }
  return {
    ok: false,
    message: `Cannot run handler: invalid handler: ${handlerKind(handler)} is not supported for lifecycle hooks`,
  };
}
