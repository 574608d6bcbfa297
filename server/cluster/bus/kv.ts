/**
 * Reading the KV bucket of heartbeats and latest node states (a console replica's; the agent
 * writes them, publisher.ts): what it holds now, and its changes. Every entry is untrusted: parsed
 * (parse.ts) and either accepted whole or refused, counted and logged (refusals.ts).
 */
import type { Heartbeat, NodeState, Parsed } from '../envelope';
import { parseHeartbeat, parseNodeState } from '../parse';
import type { BusConnection } from './connection';

export type LiveEntry = { kind: 'hb'; value: Heartbeat } | { kind: 'state'; value: NodeState };

/** Parses a KV entry; a refusal is counted and logged and yields undefined. */
export function acceptLive(
  bus: BusConnection,
  key: string,
  data: Uint8Array,
): LiveEntry | undefined {
  const { names, refusals } = bus;
  const k = names.parseKey(key);
  if (!k) {
    refusals.refuse('kv', 'subject-mismatch', key, 'not an hb.<node> or state.<node> key');
    return undefined;
  }
  const parsed: Parsed<Heartbeat | NodeState> =
    k.kind === 'hb'
      ? parseHeartbeat(data, names.cluster, k.node)
      : parseNodeState(data, names.cluster, k.node);
  if (!parsed.ok) {
    refusals.refuse('kv', parsed.reason, key, parsed.detail);
    return undefined;
  }
  return k.kind === 'hb'
    ? { kind: 'hb', value: parsed.value as Heartbeat }
    : { kind: 'state', value: parsed.value as NodeState };
}

/** Every heartbeat and node state in KV now (refused entries counted and left out). */
export async function readLive(
  bus: BusConnection,
): Promise<{ heartbeats: Map<string, Heartbeat>; states: Map<string, NodeState> }> {
  const heartbeats = new Map<string, Heartbeat>();
  const states = new Map<string, NodeState>();
  const keys: string[] = [];
  for await (const k of await bus.live.keys()) keys.push(k);
  for (const key of keys) {
    const entry = await bus.live.get(key);
    if (!entry || entry.operation !== 'PUT') continue;
    const got = acceptLive(bus, key, entry.value);
    if (got?.kind === 'hb') heartbeats.set(got.value.node, got.value);
    if (got?.kind === 'state') states.set(got.value.node, got.value);
  }
  return { heartbeats, states };
}

/** Heartbeats and states as they change (the current values first), until `signal`. */
export async function* watchLive(
  bus: BusConnection,
  signal?: AbortSignal,
): AsyncGenerator<LiveEntry> {
  const watch = await bus.live.watch({ ignoreDeletes: true });
  const stop = () => watch.stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    if (signal?.aborted) return;
    for await (const e of watch) {
      if (e.operation !== 'PUT') continue;
      const got = acceptLive(bus, e.key, e.value);
      if (got) yield got;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    watch.stop();
  }
}
