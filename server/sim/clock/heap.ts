/**
 * A binary min-heap of timed tasks, ordered by (at, seq): equal times run in scheduling order,
 * so a simulation replays identically for a given seed. Cancellation is lazy (a cancelled
 * entry is skipped when it surfaces), which keeps cancel O(1) for the common "process exited,
 * drop its wake-up" case.
 */
export interface HeapTask {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

export class TaskHeap {
  private readonly items: HeapTask[] = [];
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(task: HeapTask): void {
    const items = this.items;
    items.push(task);
    this.live++;
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent];
      if (!p || !before(task, p)) break;
      items[i] = p;
      items[parent] = task;
      i = parent;
    }
  }

  cancel(task: HeapTask): void {
    if (task.cancelled) return;
    task.cancelled = true;
    this.live--;
  }

  /** The earliest live task, without removing it. */
  peek(): HeapTask | undefined {
    this.dropCancelled();
    return this.items[0];
  }

  /** Removes and returns the earliest live task. */
  pop(): HeapTask | undefined {
    this.dropCancelled();
    const top = this.removeTop();
    if (top) {
      this.live--;
      // Done: a later cancel() of its handle must not count it again.
      top.cancelled = true;
    }
    return top;
  }

  private dropCancelled(): void {
    while (this.items[0]?.cancelled) this.removeTop();
  }

  private removeTop(): HeapTask | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (!top || !last || items.length === 0) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      const li = items[l];
      const ri = items[r];
      const si = items[smallest];
      if (li && si && before(li, si)) smallest = l;
      const s2 = items[smallest];
      if (ri && s2 && before(ri, s2)) smallest = r;
      if (smallest === i) break;
      const a = items[i];
      const b = items[smallest];
      if (!a || !b) break;
      items[i] = b;
      items[smallest] = a;
      i = smallest;
    }
    return top;
  }
}

function before(a: HeapTask, b: HeapTask): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
