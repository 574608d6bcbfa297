'use client';
/**
 * Moves the console's cursor for a step: from the previous step's moment to this one's, played in
 * slow motion (replaySpeed), pausing exactly at the step's moment — or straight there when the
 * reader prefers reduced motion, when going back, or when asked to skip.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCluster } from '@/components/data/ClusterProvider';
import { replaySpeed } from './answer';

export type Playback = 'watching' | 'arrived';

export function useStepPlayback(
  stepIndex: number,
  from: number,
  to: number,
  opts: { reduced: boolean; backwards: boolean },
): { playback: Playback; skip: () => void; replay: () => void } {
  const { actions, cursor, t, edge, ready } = useCluster();
  const [run, setRun] = useState(0);
  const key = `${stepIndex}:${run}`;
  const [arrivedAt, setArrivedAt] = useState<string | undefined>(undefined);
  const started = useRef<string | undefined>(undefined);
  // Set once the cursor is seen playing for this run: before that, `t` may still be the old one.
  const armed = useRef(false);
  // A recording's last step may lie after its last event; the cursor stops at the end.
  const target = Math.min(to, edge.to);
  // Going back jumps (the replay button still plays it); reduced motion always jumps.
  const direct = opts.reduced || (opts.backwards && run === 0) || from >= target;
  const playback: Playback = direct || arrivedAt === key ? 'arrived' : 'watching';

  useEffect(() => {
    if (!ready || started.current === key) return;
    started.current = key;
    armed.current = false;
    actions.pause();
    if (direct) {
      actions.seek(target);
      return;
    }
    actions.setSpeed(replaySpeed(target - from));
    actions.seek(from);
    actions.play();
  }, [ready, key, direct, from, target, actions]);

  useEffect(() => {
    if (playback !== 'watching' || started.current !== key) return;
    if (cursor.mode === 'playing') armed.current = true;
    if (armed.current && t >= target) {
      armed.current = false;
      actions.pause();
      actions.seek(target);
      actions.setSpeed(1);
      setArrivedAt(key);
    }
  }, [playback, cursor.mode, t, target, key, actions]);

  const skip = useCallback(() => {
    armed.current = false;
    actions.pause();
    actions.seek(target);
    actions.setSpeed(1);
    setArrivedAt(key);
  }, [actions, target, key]);
  const replay = useCallback(() => {
    setRun((r) => r + 1);
  }, []);
  return { playback, skip, replay };
}
