'use client';
/**
 * Holds the console's view of the cluster: the buffered timeline (live state + recent events +
 * client snapshots), the cursor (live or a moment, playing or not), the selection and the log
 * filter, and derives the state shown at the cursor with the shared reducer. Components read it
 * with `useCluster()`; nothing else talks to the source.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { TimelineEvent } from '@/lib/timeline/events';
import { emptyState, type ClusterState } from '@/lib/timeline/state';
import { matchesFilter, type LogFilter } from '@/components/log/filter';
import { layerOfId, type Layer } from './entity';
import {
  cursorTime,
  LIVE,
  pause as pauseCursor,
  play as playCursor,
  rebase,
  seek as seekCursor,
  stepTarget,
  tick,
  type Cursor,
  type Edge,
} from './cursor';
import type { ClusterSource, SourceStatus } from './source';
import { TimelineBuffer } from './timeline-buffer';
import { writeView, type SourceKind, type ViewState } from './url-state';

/** How much history a live source is asked for on connect. */
export const HISTORY_MS = 15 * 60_000;

export interface ClusterView {
  sourceKind: SourceKind;
  /** False for recordings: no Live button. */
  live: boolean;
  status: SourceStatus;
  statusDetail?: string;
  historyError?: string;
  /** A first snapshot has arrived. */
  ready: boolean;
  buffer: TimelineBuffer | undefined;
  /** Changes whenever the buffer does. */
  version: number;
  /** The state at the cursor. */
  state: ClusterState;
  cursor: Cursor;
  speed: number;
  edge: Edge;
  /** The moment shown. */
  t: number;
  /** What relative times count from: now for a live source, the end of a recording. */
  reference: number;
  selection?: string;
  selectionLayer?: Layer;
  filter: LogFilter;
  /** The events the log shows and the step buttons walk, ascending seq. */
  visibleEvents: readonly TimelineEvent[];
  actions: ClusterActions;
}

export interface ClusterActions {
  select: (id: string | undefined) => void;
  /** Selects an event's entity and moves the cursor to it (log → diagram). */
  focusEvent: (e: TimelineEvent, id: string) => void;
  seek: (t: number) => void;
  play: () => void;
  pause: () => void;
  togglePlay: () => void;
  goLive: () => void;
  step: (dir: 1 | -1) => void;
  setSpeed: (s: number) => void;
  setFilter: (f: LogFilter) => void;
}

const Ctx = createContext<ClusterView | null>(null);

export function useCluster(): ClusterView {
  const v = useContext(Ctx);
  if (!v) throw new Error('useCluster() outside <ClusterProvider>');
  return v;
}

export function ClusterProvider({
  source,
  initialView,
  children,
  now = Date.now,
}: {
  source: ClusterSource;
  initialView: ViewState;
  children: ReactNode;
  now?: () => number;
}) {
  const bufferRef = useRef<TimelineBuffer | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<{ s: SourceStatus; detail?: string }>({ s: 'connecting' });
  const [historyError, setHistoryError] = useState<string | undefined>(undefined);
  const [cursor, setCursor] = useState<Cursor>(() =>
    initialView.at !== undefined
      ? { mode: 'paused', t: initialView.at }
      : source.live
        ? LIVE
        : { mode: 'paused', t: Number.MAX_SAFE_INTEGER },
  );
  const [speed, setSpeedState] = useState(initialView.speed);
  const [selection, setSelection] = useState(initialView.sel);
  const [filter, setFilter] = useState(initialView.filter);
  // 0 until mounted: the server's clock must not leak into the first render (hydration).
  const [wall, setWall] = useState(0);
  const loading = useRef(false);

  // Many batches can arrive within one frame: re-render once per frame at most.
  const bumpPending = useRef(false);
  const bump = useCallback(() => {
    if (bumpPending.current) return;
    bumpPending.current = true;
    const run = () => {
      bumpPending.current = false;
      setVersion((v) => v + 1);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }, []);

  const loadHistory = useCallback(
    async (from: number) => {
      const buf = bufferRef.current;
      if (!buf || loading.current || from >= buf.from) return;
      loading.current = true;
      try {
        const base = await source.stateAt(from);
        const events = await source.range({ from, to: buf.from });
        buf.prepend(base, events, from);
        setHistoryError(undefined);
        bump();
      } catch (err) {
        // History is a convenience: keep what we have and say what failed.
        setHistoryError(err instanceof Error ? err.message : String(err));
      } finally {
        loading.current = false;
      }
    },
    [source, bump],
  );

  useEffect(() => {
    const stop = source.watch({
      onSnapshot(state) {
        const buf = bufferRef.current;
        if (buf) buf.reset(state);
        else bufferRef.current = new TimelineBuffer(state);
        bump();
        if (source.live) void loadHistory(state.t - HISTORY_MS);
      },
      onEvents(events) {
        if (bufferRef.current && bufferRef.current.append(events) > 0) bump();
      },
      onStatus(s, detail) {
        setStatus(detail === undefined ? { s } : { s, detail });
      },
    });
    return stop;
  }, [source, bump, loadHistory]);

  const playing = cursor.mode === 'playing';
  // The clock: every frame while playing (smooth scrubber), every second otherwise (live edge, countdowns).
  useEffect(() => {
    if (playing && typeof requestAnimationFrame === 'function') {
      let id = requestAnimationFrame(function frame() {
        setWall(now());
        id = requestAnimationFrame(frame);
      });
      return () => cancelAnimationFrame(id);
    }
    const id = setInterval(() => setWall(now()), 1000);
    const first = setTimeout(() => setWall(now()), 0);
    return () => {
      clearInterval(id);
      clearTimeout(first);
    };
  }, [playing, now]);

  const buffer = bufferRef.current;
  const edge = useMemo<Edge>(() => {
    if (!buffer) return { from: wall, to: wall };
    const to = source.live ? Math.max(buffer.to, wall) : buffer.to;
    return { from: Math.min(buffer.from, to), to };
    // version: the buffer is mutable; its bounds change with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buffer, version, wall, source.live]);

  // Reaching the edge while playing joins live (or stops at the end of a recording).
  useEffect(() => {
    const next = tick(cursor, speed, wall, edge, source.live);
    if (next !== cursor) setCursor(next);
  }, [cursor, speed, wall, edge, source.live]);

  const t = cursorTime(cursor, speed, wall, edge);

  // A link to a moment before the buffered history: fetch from a little before it.
  useEffect(() => {
    if (buffer && source.live && cursor.mode !== 'live' && t <= buffer.from)
      void loadHistory(t - 60_000);
  }, [buffer, version, cursor.mode, t, source.live, loadHistory]);

  const state = useMemo(() => {
    if (!buffer) return emptyState();
    return cursor.mode === 'live' ? buffer.latest : buffer.stateAt(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buffer, version, cursor.mode, t]);

  const selectionLayer = selection ? layerOfId(state, selection) : undefined;

  const visibleEvents = useMemo(() => {
    if (!buffer) return [];
    const sel = selection && selectionLayer ? { id: selection, layer: selectionLayer } : undefined;
    return buffer.events.filter((e) => matchesFilter(e, filter, sel));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buffer, version, filter, selection, selectionLayer]);

  const actions = useMemo<ClusterActions>(() => {
    const clock = () => now();
    return {
      select: (id) => setSelection(id),
      focusEvent: (e, id) => {
        setSelection(id);
        setCursor({ mode: 'paused', t: e.t });
      },
      seek: (to) => setCursor((c) => seekCursor(c, to, clock(), edge)),
      play: () => setCursor((c) => playCursor(c, speed, clock(), edge)),
      pause: () => setCursor((c) => pauseCursor(c, speed, clock(), edge)),
      togglePlay: () =>
        setCursor((c) =>
          c.mode === 'playing'
            ? pauseCursor(c, speed, clock(), edge)
            : playCursor(c, speed, clock(), edge),
        ),
      goLive: () => setCursor(source.live ? LIVE : { mode: 'paused', t: edge.to }),
      step: (dir) => {
        const times = visibleEvents.map((e) => e.t).sort((a, b) => a - b);
        const target = stepTarget(times, t, dir);
        if (target !== undefined) setCursor({ mode: 'paused', t: target });
        else if (dir === 1 && source.live) setCursor(LIVE);
      },
      setSpeed: (s) => {
        setCursor((c) => rebase(c, speed, clock(), edge));
        setSpeedState(s);
      },
      setFilter: (f) => setFilter(f),
    };
  }, [edge, speed, visibleEvents, t, source.live, now]);

  // The view in the URL, so a copied link reopens it. While playing, at most once a second.
  const urlAt = cursor.mode === 'live' ? undefined : t;
  const urlKey = cursor.mode === 'playing' ? `playing:${Math.floor(wall / 1000)}` : String(urlAt);
  useEffect(() => {
    if (typeof window === 'undefined' || !buffer) return;
    const view: ViewState = { speed, filter, source: initialView.source };
    if (initialView.demoStart !== undefined) view.demoStart = initialView.demoStart;
    if (selection) view.sel = selection;
    // Rounded up: an event observed at a fractional millisecond must still be "at or before" it.
    if (urlAt !== undefined) view.at = Math.ceil(urlAt);
    const params = writeView(view, new URLSearchParams(window.location.search));
    const query = params.toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url);
    }
    // Round while playing so the URL is not rewritten every frame.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [speed, filter, selection, urlKey, initialView.source, initialView.demoStart, buffer]);

  const value: ClusterView = {
    sourceKind: initialView.source,
    live: source.live,
    status: status.s,
    ...(status.detail !== undefined ? { statusDetail: status.detail } : {}),
    ...(historyError !== undefined ? { historyError } : {}),
    ready: buffer !== undefined,
    buffer,
    version,
    state,
    cursor,
    speed,
    edge,
    t,
    reference: edge.to,
    ...(selection !== undefined ? { selection } : {}),
    ...(selectionLayer !== undefined ? { selectionLayer } : {}),
    filter,
    visibleEvents,
    actions,
  };
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
