/**
 * The browser demo (`?source=demo`): a recording of the built-in demo workload, made from the
 * simulator, the driver and the engine when the console was built (server/demo/asset.ts), played
 * as a live source — there is no model of the kubelet in the browser.
 *
 * The recording's first moment plays at the anchor (`demo=` in the URL; DEMO_HISTORY_MS before
 * the first visit), and its clock runs with the wall clock from there, so the demo opens with a
 * few minutes of history and goes on live until the recording ends; then it stays at its end.
 * Times are the recording's own (virtual) ones: the source's `now()` is that clock, and a copied
 * link (`demo=` and `at=`) replays the same moments.
 */
import { reduceAll } from '@/lib/timeline/reducer';
import {
  countUntil,
  parseTimelineText,
  timelineTimes,
  type TimelineFile,
} from '@/lib/timeline/file';
import type { ClusterSource } from './source';

export interface DemoSourceOptions {
  /** The recording (default: GET /api/demo). */
  load?: () => Promise<TimelineFile>;
  /** The wall time at which the recording's first moment plays (default: `historyMs` ago). */
  start?: number;
  historyMs?: number;
  /** The wall clock. */
  now?: () => number;
  /** How often new events are sent. */
  tickMs?: number;
  timers?: {
    setInterval: (fn: () => void, ms: number) => unknown;
    clearInterval: (handle: unknown) => void;
  };
}

export const DEMO_RECORDING_URL = '/api/demo';
export const DEMO_HISTORY_MS = 3 * 60_000;
/** A demo link older than this starts afresh (the anchor moves to now). */
export const DEMO_LINK_MAX_AGE_MS = 6 * 3600_000;

/**
 * The demo is anchored to a start time kept in the URL (`demo=`), so a copied demo link
 * replays the same moments. A view without one (or with a stale one) gets a fresh anchor.
 */
export function anchorDemo<V extends { source: string; demoStart?: number }>(
  view: V,
  now: number,
): V {
  if (view.source === 'live') return view;
  const start = view.demoStart;
  if (start !== undefined && start <= now && now - start <= DEMO_LINK_MAX_AGE_MS) return view;
  return { ...view, demoStart: Math.round(now - DEMO_HISTORY_MS) };
}

/** Fetches the server's recording and checks it as any timeline file is checked. */
export async function fetchDemoRecording(url = DEMO_RECORDING_URL): Promise<TimelineFile> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await res.text();
  if (!res.ok) {
    let message = `the demo recording could not be loaded (HTTP ${res.status})`;
    try {
      const body = JSON.parse(text) as { error?: unknown };
      if (typeof body.error === 'string') message = body.error;
    } catch {
      // not JSON: keep the status line
    }
    throw new Error(message);
  }
  return parseTimelineText(text);
}

export function createDemoSource(opts: DemoSourceOptions = {}): ClusterSource {
  const wall = opts.now ?? (() => Date.now());
  const timers = opts.timers ?? {
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  const anchor = opts.start ?? wall() - (opts.historyMs ?? DEMO_HISTORY_MS);
  let loaded: { file: TimelineFile; times: number[] } | undefined;
  let loading: Promise<{ file: TimelineFile; times: number[] }> | undefined;
  const load = () =>
    (loading ??= (opts.load ?? (() => fetchDemoRecording()))().then(
      (file) => (loaded = { file, times: timelineTimes(file) }),
    ));
  /** The recording's clock: its first moment at the anchor, then the wall clock's pace, up to its end. */
  const clock = (f: TimelineFile) => Math.min(f.to, f.from + Math.max(0, wall() - anchor));
  /** How many events have happened by the recording's clock (timeline times, as a replay counts them). */
  const playedCount = (r: { file: TimelineFile; times: number[] }) =>
    countUntil(r.times, clock(r.file));
  const played = (r: { file: TimelineFile; times: number[] }) =>
    r.file.events.slice(0, playedCount(r));

  return {
    live: true,
    now: () => (loaded ? clock(loaded.file) : wall()),
    watch(h) {
      let open = true;
      let handle: unknown;
      load().then(
        (r) => {
          if (!open) return;
          let sent = playedCount(r);
          h.onStatus('live');
          h.onSnapshot(reduceAll(r.file.initialState, r.file.events.slice(0, sent)));
          handle = timers.setInterval(() => {
            const end = playedCount(r);
            if (end <= sent) return;
            const fresh = r.file.events.slice(sent, end);
            sent = end;
            h.onEvents(fresh);
          }, opts.tickMs ?? 250);
        },
        (err: unknown) => {
          if (open) h.onStatus('offline', err instanceof Error ? err.message : String(err));
        },
      );
      return () => {
        open = false;
        if (handle !== undefined) timers.clearInterval(handle);
      };
    },
    async range({ from, to }) {
      const r = await load();
      return played(r).filter((e) => e.t >= from && e.t <= to);
    },
    async stateAt(t) {
      const r = await load();
      const k = Math.min(playedCount(r), countUntil(r.times, t));
      return reduceAll(r.file.initialState, r.file.events.slice(0, k));
    },
  };
}
