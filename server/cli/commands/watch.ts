/**
 * `podscope watch --cri …`: the engine headless, printing every timeline event as one JSON line
 * (NDJSON) — CRI events and the derived transitions with their cause and why.
 */
import { formatExplanation } from '@/lib/i18n/format';
import { toJsonValue } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import { loadConfig } from '@/server/config';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { logFn, rootLogger } from '@/server/log';
import { lockTimeline, openStore } from '@/server/timeline-db';
import type { Command } from '../command';
import { criNodes, parse, parseDuration } from '../lib/args';

const usage = `Usage: podscope watch --cri [NAME=]ENDPOINT [--cri …] [--relist 1s] [--for DURATION] [--data DIR]

Watches the runtimes like the console does and prints every event as one JSON line: CRI events
(what changed on the wire) and derived transitions (container state, pod phase and conditions,
node conditions) with "cause" (the seq of the CRI event) and "whyText" (the kubelet's reason).

  --cri [NAME=]ENDPOINT   unix:///path, /path or tcp://host:port (repeatable)
  --relist DURATION       relist period (default 1s)
  --for DURATION          stop after this long (default: until interrupted)
  --data DIR              also record the timeline in DIR (default: memory only)`;

export function eventLine(e: TimelineEvent): string {
  const why = 'why' in e && e.why ? { whyText: formatExplanation(e.why) } : {};
  return JSON.stringify(toJsonValue({ ...e, ...why }));
}

export const watchCommand: Command = {
  name: 'watch',
  summary: 'watch CRI endpoints and print derived events as NDJSON',
  usage,
  async run(args) {
    const { values } = parse(args, {
      cri: { type: 'string', multiple: true },
      relist: { type: 'string', default: '1s' },
      for: { type: 'string' },
      data: { type: 'string' },
    });
    const nodes = criNodes(values.cri);
    const defaults = loadConfig({});
    const store = openStore({ path: values.data ?? ':memory:' });
    const unlock = lockTimeline(store.path);
    const engine = new Engine({
      store: engineStore(store),
      timings: { ...defaults.periods, relistMs: parseDuration(values.relist, '--relist') },
      dial: (endpoint) => criRuntime(endpoint, { timeoutMs: defaults.periods.criTimeoutMs }),
      // Diagnostics on stderr (stdout is the NDJSON stream): readable in a terminal, JSON otherwise.
      log: logFn(rootLogger()),
    });
    const ac = new AbortController();
    const sub = engine.subscribe(ac.signal);
    for (const n of nodes) engine.addNode(n.name, n.endpoint, n.lab);
    engine.start();
    const stop = () => ac.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const timer = values.for ? setTimeout(stop, parseDuration(values.for, '--for')) : undefined;
    // A closed pipe (e.g. `| head`) ends the watch quietly.
    process.stdout.on('error', stop);
    let printed = 0;
    const print = (events: readonly TimelineEvent[]) => {
      for (const e of events) {
        if (e.seq <= printed || ac.signal.aborted) continue;
        printed = e.seq;
        process.stdout.write(`${eventLine(e)}\n`);
      }
    };
    try {
      print(store.eventsAfter(0, 100_000));
      for await (const batch of sub) print(batch);
    } finally {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await engine.stop();
      store.close();
      unlock();
    }
    return 0;
  },
};
