/**
 * The relist diff: old records vs the runtime's current lists → what changed on the wire.
 * A port of the transition table in upstream pkg/kubelet/pleg/generic.go (generateEvents,
 * kubernetes/kubernetes 01480d9d), widened to say more than the kubelet needs to: Podscope
 * reports creation (the kubelet generates ContainerChanged for it and never sends it) and
 * sandbox transitions.
 *
 * Pure: no I/O, no clock. The engine inspects what `planInspection` names, then calls
 * `containerTransitions` / `sandboxTransitions` with the inspected records.
 */
import type { RuntimeContainer, RuntimeSandbox } from '@/lib/kubelet/runtime';
import { StartErrorReason } from '@/lib/kubelet/reasons';
import type { CriEventType, CriFieldValue } from '@/lib/timeline/events';

/** PLEG's plegContainerState: created counts as unknown, absence is its own state. */
export type PlegState = 'running' | 'exited' | 'unknown' | 'non-existent';

export function plegState(c: RuntimeContainer | undefined): PlegState {
  if (!c) return 'non-existent';
  switch (c.state) {
    case 'running':
      return 'running';
    case 'exited':
      return 'exited';
    case 'created':
    case 'unknown':
      return 'unknown';
  }
}

/** What a relist found changed for one container or sandbox id. */
export interface Transition {
  type: CriEventType;
  id: string;
  podUid: string;
  container?: string;
  runtimeTime?: number;
  detail: Record<string, CriFieldValue>;
}

/** The generic PLEG's table, plus creation. Returns the CRI events for one container id. */
export function containerTransitions(
  old: RuntimeContainer | undefined,
  now: RuntimeContainer | undefined,
  podUid: string,
): Transition[] {
  const from = plegState(old);
  const to = plegState(now);
  const c = now ?? old;
  if (!c) return [];
  const base = { id: c.id, podUid, container: c.name };
  if (from === to) {
    // Same PLEG state; a created → unknown change or an attempt bump is not an event.
    return [];
  }
  switch (to) {
    case 'running':
      return [
        ...(from === 'non-existent'
          ? [
              {
                ...base,
                type: 'ContainerCreated' as const,
                runtimeTime: c.createdAt,
                detail: { attempt: c.attempt },
              },
            ]
          : []),
        { ...base, type: 'ContainerStarted', runtimeTime: c.startedAt, detail: fields(c) },
      ];
    case 'exited': {
      // Created and/or started between two relists: report the steps the runtime's timestamps prove.
      const missed: Transition[] = [];
      if (from === 'non-existent')
        missed.push({
          ...base,
          type: 'ContainerCreated',
          runtimeTime: c.createdAt,
          detail: { attempt: c.attempt },
        });
      if (from !== 'running' && c.startedAt !== undefined && c.reason !== StartErrorReason)
        missed.push({
          ...base,
          type: 'ContainerStarted',
          runtimeTime: c.startedAt,
          detail: { attempt: c.attempt },
        });
      return [
        ...missed,
        { ...base, type: 'ContainerExited', runtimeTime: c.finishedAt, detail: fields(c) },
      ];
    }
    case 'unknown':
      return from === 'non-existent'
        ? [{ ...base, type: 'ContainerCreated', runtimeTime: c.createdAt, detail: fields(c) }]
        : [{ ...base, type: 'ContainerExited', detail: { ...fields(c), state: 'unknown' } }];
    case 'non-existent':
      return from === 'exited'
        ? [{ ...base, type: 'ContainerRemoved', detail: {} }]
        : [
            { ...base, type: 'ContainerExited', detail: { state: 'removed-while-' + from } },
            { ...base, type: 'ContainerRemoved', detail: {} },
          ];
  }
}

export function sandboxTransitions(
  old: RuntimeSandbox | undefined,
  now: RuntimeSandbox | undefined,
): Transition[] {
  const s = now ?? old;
  if (!s) return [];
  const base = { id: s.id, podUid: s.uid };
  if (!now) return [{ ...base, type: 'SandboxRemoved', detail: {} }];
  if (old && old.state === now.state) return [];
  const detail: Record<string, CriFieldValue> = { state: now.state, attempt: now.attempt };
  if (now.network?.ip) detail.ip = now.network.ip;
  return [
    {
      ...base,
      type: now.state === 'ready' ? 'SandboxReady' : 'SandboxNotReady',
      runtimeTime: old ? undefined : now.createdAt,
      detail,
    },
  ];
}

function fields(c: RuntimeContainer): Record<string, CriFieldValue> {
  const out: Record<string, CriFieldValue> = { state: c.state, attempt: c.attempt };
  if (c.exitCode !== undefined) out.exitCode = c.exitCode;
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message.slice(0, 512);
  if (c.image) out.image = c.image;
  return out;
}

/** A cheap identity for a listed container: anything that would make the kubelet look again. */
export const listedKey = (c: Pick<RuntimeContainer, 'state' | 'createdAt' | 'attempt'>): string =>
  `${c.state}|${c.createdAt}|${c.attempt}`;

/**
 * Which ids need a ContainerStatus / PodSandboxStatus call: new ids, ids whose listed state
 * changed, and ids whose earlier inspection failed (kept uninspected so they are retried).
 */
export function planInspection(
  oldContainers: ReadonlyMap<string, RuntimeContainer>,
  listed: readonly RuntimeContainer[],
  oldSandboxes: ReadonlyMap<string, RuntimeSandbox>,
  listedSandboxes: readonly RuntimeSandbox[],
): { containers: string[]; sandboxes: string[] } {
  const containers: string[] = [];
  for (const c of listed) {
    const prev = oldContainers.get(c.id);
    // listedKey(prev) !== listedKey(c), compared field by field (this runs for every container of
    // every relist; building the keys was a measurable share of a quiet relist).
    if (
      !prev ||
      !prev.inspected ||
      prev.state !== c.state ||
      prev.createdAt !== c.createdAt ||
      prev.attempt !== c.attempt
    )
      containers.push(c.id);
  }
  const sandboxes: string[] = [];
  for (const s of listedSandboxes) {
    const prev = oldSandboxes.get(s.id);
    if (!prev || !prev.inspected || prev.state !== s.state) sandboxes.push(s.id);
  }
  return { containers, sandboxes };
}
