'use client';
import { useEffect, useRef } from 'react';
import { writeView, type ViewState } from './url-state';

/**
 * Keeps the view in the address bar (replaceState: no history entry per click), so a copied link
 * reopens it. Other query parameters are kept. While playing the cursor moves every frame; the
 * URL then follows at most once a second.
 */
export function useUrlView(view: ViewState | undefined, playing: boolean): void {
  const lastWrite = useRef(0);
  useEffect(() => {
    if (!view || typeof window === 'undefined') return;
    const now = Date.now();
    if (playing && now - lastWrite.current < 1000) return;
    lastWrite.current = now;
    const query = writeView(view, new URLSearchParams(window.location.search)).toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url);
    }
  }, [view, playing]);
}
