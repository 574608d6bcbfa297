/**
 * At most N timeline imports at a time, across both ways in (the upload route and the
 * `timelines.import` procedure): each holds up to 50 MiB of body plus its parse while it runs.
 * One more is refused at once (429) rather than queued, so a burst of uploads costs nothing.
 */
import { getConfig } from '@/server/config';

export class ImportGate {
  private running = 0;
  constructor(readonly max: number) {}

  /** A release function when a slot is free; undefined when `max` imports are running. */
  tryEnter(): (() => void) | undefined {
    if (this.running >= this.max) return undefined;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }

  get active(): number {
    return this.running;
  }
}

const KEY = Symbol.for('podscope.importGate');

/** The process's gate, sized by PODSCOPE_IMPORT_CONCURRENCY. */
export function importGate(): ImportGate {
  const g = globalThis as { [KEY]?: ImportGate };
  return (g[KEY] ??= new ImportGate(getConfig().limits.importConcurrency));
}

export function busyMessage(max: number): string {
  return `${max} timeline import${max === 1 ? ' is' : 's are'} already running (PODSCOPE_IMPORT_CONCURRENCY); try again in a moment`;
}
