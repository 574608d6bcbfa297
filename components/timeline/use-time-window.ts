'use client';
/**
 * The timeline's window as React state: fitted to the data until the reader zooms or pans, kept
 * around the cursor as it moves (stepping, playing, seeking from the log), pinned to now while
 * it reaches the live edge.
 */
import { useCallback, useMemo, useState } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import {
  FIT,
  followCursor,
  panWindow,
  visibleWindow,
  zoomWindow,
  type TimeView,
  type TimeWindow,
  type WindowBounds,
} from './window';

export interface TimeWindowControls {
  window: TimeWindow;
  fitted: boolean;
  /** factor < 1 zooms in; `anchor` stays in place (defaults to the cursor). */
  zoom: (factor: number, anchor?: number) => void;
  pan: (deltaMs: number) => void;
  fit: () => void;
  /** Brings the live edge back into view (going live). */
  showLive: () => void;
}

/** The reader's view, and the cursor time it was set at (the cursor may sit outside it then). */
interface Held {
  view: TimeView;
  heldAt?: number;
}

export function useTimeWindow(): TimeWindowControls {
  const { buffer, edge, t: now, live, cursor } = useCluster();
  const [held, setHeld] = useState<Held>({ view: FIT });
  const view = held.view;
  // When the data starts: the first buffered event (a live server's history request reaches
  // back further than its recording may go).
  const firstEvent = buffer?.events[0]?.t;
  // Rebuilt when a bound moves, not whenever the buffer changes.
  const { from: edgeFrom, to: edgeTo } = edge;
  const bounds = useMemo<WindowBounds>(
    () => ({ edge: { from: edgeFrom, to: edgeTo }, dataFrom: firstEvent ?? edgeTo, live }),
    [edgeFrom, edgeTo, firstEvent, live],
  );
  const window = useMemo(() => visibleWindow(view, bounds), [view, bounds]);

  // The cursor stays in view when it moves (adjusted while rendering: no frame with the cursor
  // off screen) — not when the reader has just zoomed or panned it out of view. At live it moves
  // with the edge: a window panned away from the edge stays where the reader put it until they
  // go live again.
  const isLive = cursor.mode === 'live';
  const [wasLive, setWasLive] = useState(isLive);
  if (isLive !== wasLive) {
    setWasLive(isLive);
    if (isLive) setHeld({ view: followCursor(view, bounds.edge.to, bounds) });
  } else if (!isLive && now !== held.heldAt) {
    const followed = followCursor(view, now, bounds);
    if (followed !== view) setHeld({ view: followed });
  }

  const zoom = useCallback(
    (factor: number, anchor?: number) =>
      setHeld((h) => ({
        // At live, now stays pinned to the right end.
        view: zoomWindow(h.view, factor, isLive ? bounds.edge.to : (anchor ?? now), bounds),
        heldAt: now,
      })),
    [bounds, isLive, now],
  );
  const pan = useCallback(
    (deltaMs: number) =>
      setHeld((h) => ({ view: panWindow(h.view, deltaMs, bounds), heldAt: now })),
    [bounds, now],
  );
  const fit = useCallback(() => setHeld({ view: FIT, heldAt: now }), [now]);
  const showLive = useCallback(
    () => setHeld((h) => ({ view: followCursor(h.view, bounds.edge.to, bounds) })),
    [bounds],
  );
  return { window, fitted: view.mode === 'fit', zoom, pan, fit, showLive };
}
