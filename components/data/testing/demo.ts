/// <reference types="vite/client" />
/**
 * The component tests' demo timeline: the built-in demo workload (server/demo/workload.ts) on three
 * simulated nodes, recorded through the driver and the engine (server/demo/record.ts) — what the
 * engine really derives, so the tests see the events and states the console really gets.
 *
 * A committed recording (demo.podscope.json, a timeline file), so the tests are fast and a change
 * to the workload does not move them. Re-record it when the event model changes:
 *   node scripts/record-demo.mjs --out components/data/testing/demo.podscope.json --minutes 8
 */
import { parseTimelineText } from '@/lib/timeline/file';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState } from '@/lib/timeline/state';
import text from './demo.podscope.json?raw';

export interface DemoTimeline {
  initial: ClusterState;
  events: TimelineEvent[];
  /** The recording's first and last moments (epoch ms, virtual). */
  start: number;
  end: number;
  nodes: string[];
}

const file = parseTimelineText(text);

/** The recording, whole or its first `ms` (events up to start + ms). */
export function demoTimeline(ms?: number): DemoTimeline {
  const end = ms === undefined ? file.to : Math.min(file.to, file.from + ms);
  return {
    initial: file.initialState,
    events: file.events.filter((e) => e.t <= end),
    start: file.from,
    end,
    nodes: file.source.nodes.map((n) => n.name),
  };
}
