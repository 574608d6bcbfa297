/**
 * CPU profiles for `npm run bench -- --profile`: an in-process sampling profile (node:inspector)
 * around a suite's measured part, and a flame summary — the functions with the most self time —
 * that the results JSON and the README quote ("where time goes").
 */
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface FlameLine {
  fn: string;
  where: string;
  self_pct: number;
}

/** Starts sampling this process (every `intervalUs`); the returned function stops and yields the profile. */
export async function startProfile(intervalUs = 500): Promise<() => Promise<CpuProfile>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return profile;
  };
}

/** The `top` functions by self time (share of all samples, idle and GC included as V8 names them). */
export function summarize(profile: CpuProfile, top = 15): FlameLine[] {
  const self = new Map<string, { fn: string; where: string; hits: number }>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (hits === 0) continue;
    total += hits;
    const url = n.callFrame.url.replace(/^.*\/(node_modules\/|server\/|lib\/|bench\/)/, '$1');
    const fn = n.callFrame.functionName || '(anonymous)';
    const line = n.callFrame.lineNumber + 1;
    const where = url ? (line > 1 ? `${url}:${line}` : url) : '';
    const key = `${fn} ${where}`;
    const e = self.get(key) ?? { fn, where, hits: 0 };
    e.hits += hits;
    self.set(key, e);
  }
  return [...self.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, top)
    .map((e) => ({
      fn: e.fn,
      where: e.where,
      self_pct: total > 0 ? Math.round((e.hits / total) * 1000) / 10 : 0,
    }));
}

/** summarize() of a .cpuprofile file (node --cpu-prof writes one per thread). */
export function summarizeFile(path: string, top = 15): FlameLine[] {
  return summarize(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, top);
}

/**
 * summarize() of several profiles taken together (the relist workers' threads: each its own
 * file): shares of all their samples, so N busy workers weigh N times one.
 */
export function summarizeFiles(paths: readonly string[], top = 15): FlameLine[] {
  const nodes = paths.flatMap((p) => (JSON.parse(readFileSync(p, 'utf8')) as CpuProfile).nodes);
  return summarize({ nodes, startTime: 0, endTime: 0 }, top);
}
