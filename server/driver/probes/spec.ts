/**
 * Probes as the API server hands them to a kubelet: defaulted and validated.
 *
 * Defaults: pkg/apis/core/v1/defaults.go SetDefaults_Probe (timeoutSeconds 1, periodSeconds 10,
 * successThreshold 1, failureThreshold 3; initialDelaySeconds stays 0). Validation: the rules of
 * pkg/apis/core/validation/validation.go validateProbe / validateLivenessProbe /
 * validateStartupProbe / validateReadinessProbe and validateInitContainers that a kubelet relies
 * on (kubernetes/kubernetes master as stored): exactly one handler, positive periods and
 * thresholds, successThreshold 1 for liveness and startup, no terminationGracePeriodSeconds on a
 * readiness probe, no probes on a regular (non-sidecar) init container.
 */
import type { V1Container, V1Probe } from '@kubernetes/client-node';

export type ProbeType = 'liveness' | 'readiness' | 'startup';

export const PROBE_TYPES: readonly ProbeType[] = ['startup', 'readiness', 'liveness'];

/** probeType.String() in pkg/kubelet/prober/prober_manager.go: what the kubelet's event texts start with. */
export function probeTypeName(type: ProbeType): 'Liveness' | 'Readiness' | 'Startup' {
  return type === 'liveness' ? 'Liveness' : type === 'readiness' ? 'Readiness' : 'Startup';
}

export const PROBE_DEFAULTS = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
} as const;

/** The probe of this type on a container, if any. */
export function probeOf(container: V1Container, type: ProbeType): V1Probe | undefined {
  return type === 'liveness'
    ? container.livenessProbe
    : type === 'readiness'
      ? container.readinessProbe
      : container.startupProbe;
}

export function defaultProbe(probe: V1Probe): V1Probe {
  return {
    ...probe,
    timeoutSeconds: probe.timeoutSeconds ?? PROBE_DEFAULTS.timeoutSeconds,
    periodSeconds: probe.periodSeconds ?? PROBE_DEFAULTS.periodSeconds,
    successThreshold: probe.successThreshold ?? PROBE_DEFAULTS.successThreshold,
    failureThreshold: probe.failureThreshold ?? PROBE_DEFAULTS.failureThreshold,
  };
}

/** The container with its three probes defaulted (absent ones stay absent). */
export function defaultContainerProbes(c: V1Container): V1Container {
  return {
    ...c,
    ...(c.livenessProbe ? { livenessProbe: defaultProbe(c.livenessProbe) } : {}),
    ...(c.readinessProbe ? { readinessProbe: defaultProbe(c.readinessProbe) } : {}),
    ...(c.startupProbe ? { startupProbe: defaultProbe(c.startupProbe) } : {}),
  };
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;

/** Every problem with one container's probes, in the API server's words where it has them. */
export function probeErrors(
  container: V1Container,
  opts: { regularInitContainer: boolean },
): string[] {
  const errors: string[] = [];
  for (const type of PROBE_TYPES) {
    const p = probeOf(container, type);
    if (!p) continue;
    const field = `${type}Probe`;
    if (opts.regularInitContainer) {
      errors.push(`${field}: may not be set for init containers without restartPolicy=Always`);
      continue;
    }
    const handlers = HANDLERS.filter((h) => p[h] !== undefined && p[h] !== null);
    if (handlers.length === 0) errors.push(`${field}: must specify a handler type`);
    if (handlers.length > 1) errors.push(`${field}: may not specify more than 1 handler type`);
    if (p.exec && (!Array.isArray(p.exec.command) || p.exec.command.length === 0)) {
      errors.push(`${field}.exec.command: Required value`);
    }
    const positive: [string, number | undefined][] = [
      ['periodSeconds', p.periodSeconds],
      ['timeoutSeconds', p.timeoutSeconds],
      ['successThreshold', p.successThreshold],
      ['failureThreshold', p.failureThreshold],
    ];
    for (const [name, v] of positive) {
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
        errors.push(`${field}.${name}: must be a whole number ≥ 1, got ${String(v)}`);
      }
    }
    const delay = p.initialDelaySeconds;
    if (delay !== undefined && (!Number.isInteger(delay) || delay < 0)) {
      errors.push(`${field}.initialDelaySeconds: must be a whole number ≥ 0, got ${String(delay)}`);
    }
    if ((type === 'liveness' || type === 'startup') && (p.successThreshold ?? 1) !== 1) {
      errors.push(`${field}.successThreshold: must be 1`);
    }
    if (type === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
      errors.push(`${field}.terminationGracePeriodSeconds: must not be set for readinessProbes`);
    }
    const grace = p.terminationGracePeriodSeconds;
    if (grace !== undefined && (!Number.isInteger(grace) || grace < 1)) {
      errors.push(`${field}.terminationGracePeriodSeconds: must be greater than 0`);
    }
  }
  return errors;
}
