/**
 * Messages refused by a reader of the bus (a malformed, foreign or misrouted message): counted
 * per reason in `podscope_cluster_refused_total{reason,source}` and logged with the subject and
 * the reason. The log is rate-limited per reason (one line per 10 s, with how many were not
 * logged) so a flood of junk cannot flood the log too; the counter counts every one.
 */
import { Counter, Registry } from '@/server/metrics/registry';
import type { Refusal } from './envelope';

const LOG_EVERY_MS = 10_000;

export class Refusals {
  /** The reader's series (served at /metrics beside the engine's). */
  readonly registry = new Registry();
  private readonly counter = new Counter({
    name: 'podscope_cluster_refused_total',
    help: 'Messages from the bus refused and never applied, by reason and where they were read.',
    labelNames: ['reason', 'source'] as const,
    registers: [this.registry],
  });
  /** The same counts, readable at once (prom-client reads asynchronously). */
  private readonly counts = new Map<string, number>();
  private readonly lastLog = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  refuse(source: 'stream' | 'kv', reason: Refusal, where: string, detail: string): void {
    this.counter.inc({ reason, source });
    const key = `${source}/${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const t = this.now();
    const last = this.lastLog.get(key);
    if (last && t - last.at < LOG_EVERY_MS) {
      last.suppressed++;
      return;
    }
    const more = last?.suppressed ? ` (${last.suppressed} more of this reason not logged)` : '';
    this.lastLog.set(key, { at: t, suppressed: 0 });
    this.log(`cluster: refused a message on ${where.slice(0, 200)}: ${reason}: ${detail}${more}`);
  }

  total(reason?: Refusal): number {
    if (reason)
      return (this.counts.get(`stream/${reason}`) ?? 0) + (this.counts.get(`kv/${reason}`) ?? 0);
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }
}
