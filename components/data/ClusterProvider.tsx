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
import type { LogFilter } from '@/components/log/filter';
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
import { VisibleEvents } from './visible-events';
import type { SourceKind, ViewState } from './url-state';
import { useClock } from './use-clock';
import { useUrlView } from './use-url-view';

/** How much history a live source is asked for on connect. */
export const HISTORY_MS = 15 * 60_000;

export interface ClusterView {
  sourceKind: SourceKind;
  /** False for recordings: no Live button. */
  live: boolean;
  status: SourceStatus;
  statusDetail?: string;
  historyError?: string;
  /** A first snapshot has arrived (and, for a link to a moment of a live console, the history back to it). */
  ready: boolean;
  buffer: TimelineBuffer | undefined;
  /**
   * The buffer as of its latest change: a new object whenever the buffer changes (it is one
   * mutable object for the session), so a memo over buffered data is keyed on this.
   */
  buffered: Buffered | undefined;
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

export interface Buffered {
  readonly buffer: TimelineBuffer;
  readonly version: number;
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
  now: wallNow = Date.now,
}: {
  source: ClusterSource;
  initialView: ViewState;
  children: ReactNode;
  now?: () => number;
}) {
  // The buffer is one mutable object for the session; `version` says when it changed.
  // The source's clock where it has one (the demo plays a recording's times), else the wall's.
  const now = source.now ?? wallNow;
  const [buffer, setBuffer] = useState<TimelineBuffer | undefined>(undefined);
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
  const initialAt = initialView.at;
  // A link to a moment of a live console: until the history reaching back to it has arrived the
  // buffer holds only the present, so the view (and the address bar) would say the present.
  const [reachingLink, setReachingLink] = useState(
    source.live && source.history !== false && initialAt !== undefined,
  );
  const [selection, setSelection] = useState(initialView.sel);
  const [filter, setFilter] = useState(initialView.filter);
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
    async (buf: TimelineBuffer, from: number) => {
      if (loading.current || from >= buf.from) return;
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
    let buf: TimelineBuffer | undefined;
    const stop = source.watch({
      onSnapshot(state) {
        if (buf) buf.reset(state);
        else {
          buf = new TimelineBuffer(state);
          setBuffer(buf);
        }
        bump();
        // History for the timeline; reaching back to a linked moment if it is older.
        const linked = initialAt !== undefined ? initialAt - 60_000 : Infinity;
        if (source.live && source.history !== false)
          void loadHistory(buf, Math.min(state.t - HISTORY_MS, linked)).finally(() =>
            setReachingLink(false),
          );
      },
      onEvents(events) {
        if (buf && buf.append(events) > 0) bump();
      },
      onStatus(s, detail) {
        setStatus(detail === undefined ? { s } : { s, detail });
      },
    });
    return stop;
  }, [source, bump, loadHistory, initialAt]);

  const playing = cursor.mode === 'playing';
  // Reaching the edge while playing joins live (or stops at the end of a recording).
  const onTick = useCallback(
    (w: number) => {
      if (!buffer) return;
      const to = source.live ? Math.max(buffer.to, w) : buffer.to;
      setCursor((c) => tick(c, speed, w, { from: buffer.from, to }, source.live));
    },
    [buffer, speed, source.live],
  );
  const wall = useClock(playing, now, onTick);

  const buffered = useMemo<Buffered | undefined>(
    () => (buffer ? { buffer, version } : undefined),
    [buffer, version],
  );

  const edge = useMemo<Edge>(() => {
    if (!buffered) return { from: wall, to: wall };
    const { buffer: b } = buffered;
    const to = source.live ? Math.max(b.to, wall) : b.to;
    return { from: Math.min(b.from, to), to };
  }, [buffered, wall, source.live]);

  const t = cursorTime(cursor, speed, wall, edge);

  const state = useMemo(() => {
    if (!buffered) return emptyState();
    return cursor.mode === 'live' ? buffered.buffer.latest : buffered.buffer.stateAt(t);
  }, [buffered, cursor.mode, t]);

  const selectionLayer = selection ? layerOfId(state, selection) : undefined;

  // Only the events appended since the last update are filtered (the same array when none match).
  const [visible] = useState(() => new VisibleEvents());
  const visibleEvents = useMemo(() => {
    if (!buffered) return [];
    const sel = selection && selectionLayer ? { id: selection, layer: selectionLayer } : undefined;
    return visible.get(buffered.buffer.events, filter, sel);
  }, [visible, buffered, filter, selection, selectionLayer]);

  const actions = useMemo<ClusterActions>(() => {
    const clock = () => now();
    return {
      select: (id) => setSelection(id),
      focusEvent: (e, id) => {
        setSelection(id);
        setCursor({ mode: 'paused', t: e.t });
      },
      seek: (to) => {
        // Before the buffered history: fetch from a little before that moment.
        if (buffer && source.live && source.history !== false && to < buffer.from)
          void loadHistory(buffer, to - 60_000);
        setCursor((c) => seekCursor(c, to, clock(), edge));
      },
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
  }, [edge, speed, visibleEvents, t, source.live, source.history, now, buffer, loadHistory]);

  // The view in the URL, so a copied link reopens it (not before there is anything to show).
  const view = useMemo<ViewState>(() => {
    const v: ViewState = { speed, filter, source: initialView.source };
    if (initialView.demoStart !== undefined) v.demoStart = initialView.demoStart;
    if (selection) v.sel = selection;
    // Rounded up: an event observed at a fractional millisecond must still be "at or before" it.
    if (cursor.mode !== 'live') v.at = Math.ceil(t);
    return v;
  }, [speed, filter, selection, initialView.source, initialView.demoStart, cursor.mode, t]);
  const ready = buffer !== undefined && !reachingLink;
  useUrlView(ready ? view : undefined, cursor.mode === 'playing');

  const value: ClusterView = {
    sourceKind: initialView.source,
    live: source.live,
    status: status.s,
    ...(status.detail !== undefined ? { statusDetail: status.detail } : {}),
    ...(historyError !== undefined ? { historyError } : {}),
    ready,
    buffer,
    buffered,
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
