/**
 * Pods whose derived state depends on time: a back-off that ends, an eviction that falls due.
 *
 * Each deadline is handed out once: a pod whose back-off ended but whose container has not
 * restarted yet keeps that past deadline, and re-deriving it every relist would change nothing
 * (on a node whose kubelet is gone, every crash-looping pod would be re-derived every second).
 */
import { own, type NodeView } from '@/lib/timeline/state';

export class DueDeadlines {
  /** Pod uid → the passed deadlines (restart|eviction) already handed out. */
  private readonly handled = new Map<string, string>();

  /** The pods of this node with a deadline passed at `now` and not handed out before. */
  take(view: NodeView, now: number): string[] {
    const out: string[] = [];
    for (const p of Object.values(view.pods)) {
      const restart = p.nextRestartAt ? Math.min(...Object.values(p.nextRestartAt)) : Infinity;
      const evict = p.evictionDueAt ?? Infinity;
      if (restart > now && evict > now) {
        this.handled.delete(p.uid);
        continue;
      }
      const key = `${restart <= now ? restart : ''}|${evict <= now ? evict : ''}`;
      if (this.handled.get(p.uid) === key) continue;
      this.handled.set(p.uid, key);
      out.push(p.uid);
    }
    for (const uid of this.handled.keys()) if (!own(view.pods, uid)) this.handled.delete(uid);
    return out;
  }
}
