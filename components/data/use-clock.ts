'use client';
import { useEffect, useState } from 'react';

/**
 * The console's wall clock: every animation frame while playing (a smooth scrubber), every
 * second otherwise (the live edge, countdowns). 0 until mounted, so the server's clock never
 * leaks into the first render (hydration).
 */
export function useClock(
  everyFrame: boolean,
  now: () => number,
  /** Called with each new time, from the timer (not from render). */
  onTick?: (wall: number) => void,
): number {
  const [wall, setWall] = useState(0);
  useEffect(() => {
    const update = () => {
      const w = now();
      setWall(w);
      onTick?.(w);
    };
    if (everyFrame && typeof requestAnimationFrame === 'function') {
      let id = requestAnimationFrame(function frame() {
        update();
        id = requestAnimationFrame(frame);
      });
      return () => cancelAnimationFrame(id);
    }
    const id = setInterval(update, 1000);
    const first = setTimeout(update, 0);
    return () => {
      clearInterval(id);
      clearTimeout(first);
    };
  }, [everyFrame, now, onTick]);
  return wall;
}
