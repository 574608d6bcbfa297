/**
 * Small readers over the Kubernetes API shapes that both sides share (V1ContainerStatus,
 * conditions). Times may arrive as Date (client-node's deserializer, the timeline codec) or as
 * RFC 3339 strings (raw JSON); both become epoch ms.
 */
import type { V1ContainerStatus } from '@kubernetes/client-node';

export function toMs(value: Date | string | number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** API times are whole seconds (metav1.Time), CRI times are finer: compare on whole seconds. */
export const isNewer = (a: number, b: number): boolean =>
  Math.floor(a / 1000) > Math.floor(b / 1000);

/** The later of two optional times: when a disagreement between two sides' changes began. */
export function latest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

export const seconds = (ms: number): number => Math.max(0, Math.round(ms / 1000));

export const iso = (ms: number): string => {
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, -5)}Z` : s;
};

export type StateName = 'waiting' | 'running' | 'terminated' | 'none';

export interface StateSummary {
  state: StateName;
  reason: string;
  exitCode?: number;
  /**
   * When this state began, where the status says: running → startedAt, terminated → finishedAt,
   * waiting after a run → the last termination's finishedAt.
   */
  at?: number;
  restartCount: number;
}

export function summarize(s: V1ContainerStatus): StateSummary {
  const st = s.state;
  if (st?.running) {
    return {
      state: 'running',
      reason: '',
      at: toMs(st.running.startedAt),
      restartCount: s.restartCount,
    };
  }
  if (st?.terminated) {
    return {
      state: 'terminated',
      reason: st.terminated.reason ?? '',
      exitCode: st.terminated.exitCode,
      at: toMs(st.terminated.finishedAt),
      restartCount: s.restartCount,
    };
  }
  if (st?.waiting) {
    return {
      state: 'waiting',
      reason: st.waiting.reason ?? '',
      at: toMs(s.lastState?.terminated?.finishedAt),
      restartCount: s.restartCount,
    };
  }
  return { state: 'none', reason: '', restartCount: s.restartCount };
}

const MAX_REASON = 128;

/** As kubectl describe prints it: `Running`, `Waiting: CrashLoopBackOff`, `Terminated: Error`. */
export function describeState(s: StateSummary): string {
  const name =
    s.state === 'none' ? 'Unknown' : `${s.state[0]?.toUpperCase() ?? ''}${s.state.slice(1)}`;
  // Reasons come from the API server and the runtime: untrusted, so bounded.
  const reason = s.reason.length > MAX_REASON ? `${s.reason.slice(0, MAX_REASON)}…` : s.reason;
  return reason ? `${name}: ${reason}` : name;
}

export const isTerminalPhase = (phase: string | undefined): boolean =>
  phase === 'Succeeded' || phase === 'Failed';
