'use client';
/**
 * Walkthrough progress in this browser (localStorage), shared by every component that shows it
 * and kept in step with other tabs through the `storage` event.
 */
import { useCallback, useSyncExternalStore } from 'react';
import {
  PROGRESS_KEY,
  readProgress,
  writeProgress,
  type KeyValueStore,
  type ProgressMap,
} from './progress';

const EMPTY: ProgressMap = {};
const listeners = new Set<() => void>();
let cache: { raw: string | null; map: ProgressMap } | undefined;

function storage(): KeyValueStore | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // access denied by the browser's settings
  }
}

function snapshot(): ProgressMap {
  const store = storage();
  let raw: string | null = null;
  try {
    raw = store?.getItem(PROGRESS_KEY) ?? null;
  } catch {
    raw = null;
  }
  // The same stored text gives the same object, so React sees no change.
  if (!cache || cache.raw !== raw) cache = { raw, map: readProgress(store) };
  return cache.map;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === PROGRESS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The progress map, and a way to change it (the change is saved and shown everywhere at once). */
export function useProgress(): [ProgressMap, (change: (map: ProgressMap) => ProgressMap) => void] {
  const map = useSyncExternalStore(subscribe, snapshot, () => EMPTY);
  const update = useCallback((change: (map: ProgressMap) => ProgressMap) => {
    const next = change(snapshot());
    writeProgress(storage(), next);
    for (const l of listeners) l();
  }, []);
  return [map, update];
}
