/**
 * Messages refused by a reader of the bus (a malformed, foreign or misrouted message): counted
 * per reason in `podscope_cluster_refused_total{reason,source}` and logged with the subject and
 * the reason. The log is rate-limited per reason (one line per 10 s, with how many were not
 * logged) so a flood of junk cannot flood the log too; the counter counts every one.
 */
import { Counter } from '@/server/metrics/registry';
import type { Refusal } from './envelope';

const LOG_EVERY_MS = 10_000;

export class Refusals {
  readonly counter = new Counter(
    'podscope_cluster_refused_total',
    'Messages from the bus refused and never applied, by reason and where they were read.',
  );
  private readonly lastLog = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  refuse(source: 'stream' | 'kv', reason: Refusal, where: string, detail: string): void {
    this.counter.inc({ reason, source });
    const key = `${source}/${reason}`;
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
      return (
        this.counter.get({ reason, source: 'stream' }) + this.counter.get({ reason, source: 'kv' })
      );
    let n = 0;
    for (const line of this.counter.render())
      if (!line.startsWith('#')) n += Number(line.slice(line.lastIndexOf(' ') + 1));
    return n;
  }
}
