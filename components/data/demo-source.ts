/**
 * A live ClusterSource over the scripted demo world (`?source=demo`): it starts with ten minutes
 * of history already played, then advances with the wall clock and sends new events as they
 * happen. The offline demo, and the source the e2e specs run on until the live server exists.
 */
import { reduceAll } from '@/lib/timeline/reducer';
import { emptyState } from '@/lib/timeline/state';
import type { ClusterSource } from './source';
import { createDemoWorld } from './fixtures/demo';

export interface DemoSourceOptions {
  now?: () => number;
  /** When the scripted world began (default: `historyMs` ago). */
  start?: number;
  historyMs?: number;
  seed?: number;
  /** How often new events are sent. */
  tickMs?: number;
  timers?: {
    setInterval: (fn: () => void, ms: number) => unknown;
    clearInterval: (handle: unknown) => void;
  };
}

export const DEMO_HISTORY_MS = 10 * 60_000;
/** A demo link older than this starts a fresh world instead of replaying hours of script. */
export const DEMO_LINK_MAX_AGE_MS = 6 * 3600_000;

/**
 * The demo world is anchored to a start time kept in the URL (`demo=`), so a copied demo link
 * replays the same timeline. A view without one (or with a stale one) gets a fresh anchor.
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

export function createDemoSource(opts: DemoSourceOptions = {}): ClusterSource {
  const now = opts.now ?? (() => Date.now());
  const timers = opts.timers ?? {
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (h: unknown) => clearInterval(h as ReturnType<typeof setInterval>),
  };
  const start = opts.start ?? now() - (opts.historyMs ?? DEMO_HISTORY_MS);
  const world = createDemoWorld({ start, seed: opts.seed ?? 7 });
  const initial = { ...emptyState(), t: start };
  const catchUp = () => world.advance(now());
  catchUp();

  return {
    live: true,
    watch(h) {
      let open = true;
      let sent = 0;
      let handle: unknown;
      queueMicrotask(() => {
        if (!open) return;
        catchUp();
        h.onStatus('live');
        h.onSnapshot(world.script.state);
        sent = world.script.state.seq;
        handle = timers.setInterval(() => {
          catchUp();
          const fresh = world.script.eventsAfter(sent);
          const last = fresh[fresh.length - 1];
          if (!last) return;
          sent = last.seq;
          h.onEvents(fresh);
        }, opts.tickMs ?? 250);
      });
      return () => {
        open = false;
        if (handle !== undefined) timers.clearInterval(handle);
      };
    },
    range({ from, to }) {
      catchUp();
      return Promise.resolve(world.script.events.filter((e) => e.t >= from && e.t <= to));
    },
    stateAt(t) {
      catchUp();
      return Promise.resolve(
        reduceAll(
          initial,
          world.script.events.filter((e) => e.t <= t),
        ),
      );
    },
  };
}
