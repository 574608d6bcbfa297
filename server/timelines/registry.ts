/**
 * Which TimelinesService serves a request. Routers read through their context (`{ engine }`);
 * the service belongs beside that engine, over the same store. Tests and the CLI bind one
 * explicitly; in the server, the process runtime's store is used.
 */
import type { EngineApi } from '@/server/engine/api';
import { TimelinesService } from './service';

const bound = new WeakMap<EngineApi, TimelinesService>();

export function bindTimelines(engine: EngineApi, service: TimelinesService): void {
  bound.set(engine, service);
}

export async function timelinesFor(engine: EngineApi): Promise<TimelinesService> {
  const known = bound.get(engine);
  if (known) return known;
  // Loaded lazily: the runtime starts simulated nodes and the engine, which tests never want here.
  const { getRuntime } = await import('@/server/runtime');
  const runtime = await getRuntime();
  if (runtime.engine !== engine)
    throw new Error('no timelines service is bound to this engine (bindTimelines)');
  const service = new TimelinesService(runtime.store);
  bound.set(engine, service);
  return service;
}

/** The process runtime's service (route handlers). */
export async function runtimeTimelines(): Promise<TimelinesService> {
  const { getRuntime } = await import('@/server/runtime');
  return timelinesFor((await getRuntime()).engine);
}
