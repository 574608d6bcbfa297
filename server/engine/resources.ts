/**
 * Node resource figures for the eviction signals. The CRI has no RPC for node capacity; the
 * simulator reports it in Status(verbose).info under `podscope.sim/node`. For a local real
 * runtime, server/engine/host-resources.ts reads the host instead.
 */
import type { NodeResources } from '@/lib/kubelet/runtime';

const KEYS: (keyof NodeResources)[] = [
  'memoryCapacityBytes',
  'memoryAvailableBytes',
  'nodeFsCapacityBytes',
  'nodeFsAvailableBytes',
  'nodeFsInodes',
  'nodeFsInodesFree',
  'imageFsCapacityBytes',
  'imageFsAvailableBytes',
  'imageFsInodes',
  'imageFsInodesFree',
  'pidMax',
  'pidsInUse',
];

export const SIM_NODE_INFO_KEY = 'podscope.sim/node';

export function parseNodeResources(info: Readonly<Record<string, string>>): NodeResources | undefined {
  const raw = info[SIM_NODE_INFO_KEY];
  if (!raw || raw.length > 64 * 1024) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const out: NodeResources = {};
  for (const k of KEYS) {
    const v = (parsed as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
