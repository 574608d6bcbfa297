'use client';
import { useCallback, useRef, useState } from 'react';

/** The content-box size of an element, kept current with a ResizeObserver. */
export function useElementSize<E extends HTMLElement>(): [
  (el: E | null) => void,
  { width: number; height: number },
] {
  const [size, setSize] = useState({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: E | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const r = entries[0]?.contentRect;
      if (r)
        setSize((s) =>
          s.width === r.width && s.height === r.height ? s : { width: r.width, height: r.height },
        );
    });
    ro.observe(el);
    observer.current = ro;
  }, []);
  return [ref, size];
}
