/**
 * `podscope record --cri … --out FILE [--for DURATION] [--gzip]`: watches the runtimes like
 * `watch` does and, when the recording ends (after --for, or at Ctrl-C / SIGTERM), writes the
 * whole recording as one timeline file (FORMAT.md) — also when it was interrupted.
 */
import { gzipSync } from 'node:zlib';
import { serializeTimelineFile } from '@/lib/timeline/file';
import { loadConfig } from '@/server/config';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { Engine } from '@/server/engine/engine';
import { engineStore } from '@/server/engine/store-adapter';
import { logFn, rootLogger } from '@/server/log';
import { openStore } from '@/server/timeline-db';
import { TimelinesService, savedInStore, writeAtomically } from '@/server/timelines';
import type { Command } from '../command';
import { UsageError } from '../command';
import { criNodes, parse, parseDuration } from '../lib/args';

const usage = `Usage: podscope record --cri [NAME=]ENDPOINT [--cri …] --out FILE [--for DURATION] [--gzip] [--title TEXT] [--relist 1s]

Records what the runtimes do — the same events \`watch\` prints — and writes the whole recording
as one timeline file when it ends: after --for, or when interrupted (Ctrl-C). Replay it with
\`podscope replay FILE\` or import it in the console.

  --cri [NAME=]ENDPOINT   unix:///path, /path or tcp://host:port (repeatable)
  --out FILE              the file to write ("-" for standard output)
  --for DURATION          stop after this long (default: until interrupted)
  --gzip                  compress (also when FILE ends in .gz)
  --title TEXT            the timeline's title (default: "Recording of <nodes>")
  --relist DURATION       relist period (default 1s)`;

export const recordCommand: Command = {
  name: 'record',
  summary: 'record CRI endpoints into a timeline file',
  usage,
  async run(args) {
    const { values, positionals } = parse(args, {
      cri: { type: 'string', multiple: true },
      out: { type: 'string' },
      for: { type: 'string' },
      gzip: { type: 'boolean', default: false },
      title: { type: 'string' },
      relist: { type: 'string', default: '1s' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const nodes = criNodes(values.cri);
    if (!values.out) throw new UsageError('give --out FILE for the recording');
    const out = values.out;
    const duration = values.for === undefined ? undefined : parseDuration(values.for, '--for');
    const title =
      values.title ?? `Recording of ${nodes.map((n) => n.name).join(', ')}`.slice(0, 200);
    if (title.trim() === '') throw new UsageError('--title must not be empty');

    const defaults = loadConfig({});
    const store = openStore({ path: ':memory:' });
    // What the command says on stderr (its product is the file); the engine's diagnostics go
    // through the logger, also on stderr.
    const say = (line: string) => process.stderr.write(`[podscope] ${line}\n`);
    const engine = new Engine({
      store: engineStore(store),
      timings: { ...defaults.periods, relistMs: parseDuration(values.relist, '--relist') },
      dial: (endpoint) => criRuntime(endpoint, { timeoutMs: defaults.periods.criTimeoutMs }),
      log: logFn(rootLogger()),
    });
    const ac = new AbortController();
    const stop = () => ac.abort();
    // Kept until the file is written: a second Ctrl-C must not kill the process mid-write.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const timer = duration === undefined ? undefined : setTimeout(stop, duration);
    const from = Date.now();
    try {
      for (const n of nodes) engine.addNode(n.name, n.endpoint, n.lab);
      engine.start();
      say(
        `recording ${nodes.length} node(s)${duration === undefined ? '; Ctrl-C ends the recording' : ''}`,
      );
      await new Promise<void>((resolve) => {
        if (ac.signal.aborted) resolve();
        else ac.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await engine.stop();
      const to = Math.max(Date.now(), store.bounds().latestT);
      const service = new TimelinesService(savedInStore(store));
      const saved = await service.save({ title, from, to });
      const file = await service.exportFile(saved.id);
      file.source = { ...file.source, kind: 'recorded' };
      const json = Buffer.from(serializeTimelineFile(file), 'utf8');
      const body = values.gzip || out.endsWith('.gz') ? gzipSync(json) : json;
      await writeAtomically(out, body);
      say(`wrote ${out}: ${file.events.length} events over ${((to - from) / 1000).toFixed(1)} s`);
      return 0;
    } finally {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await engine.stop();
      store.close();
    }
  },
};
