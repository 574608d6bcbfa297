/**
 * `podscope replay FILE [--port P] [--host H] [--lang en|zh-CN]`: serves the console on one
 * timeline file, read-only. The file is checked, imported into a fresh temporary data directory
 * and the server started on it with no nodes to watch; the share page's URL is printed (stable
 * contract: one line on stdout). The directory is removed when the server stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TimelineFileError, type TimelineFile } from '@/lib/timeline/file';
import { isLocale, LOCALES, type Locale } from '@/lib/i18n/locales';
import { openStore } from '@/server/timeline-db';
import {
  TimelinesService,
  readTimelineFileFrom,
  refusalLines,
  savedInStore,
} from '@/server/timelines';
import type { Command } from '../command';
import { UsageError } from '../command';
import { parse } from '../lib/args';
import { runServer, serveEnv } from './serve';

const usage = `Usage: podscope replay FILE [--port 3000] [--host 127.0.0.1] [--lang en|zh-CN]

Serves the console on one timeline file, read-only, and prints the link that opens it. Nothing
is watched; the file is imported into a temporary data directory removed on exit (Ctrl-C).`;

export interface ReplaySetup {
  id: string;
  url: string;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  cleanup(): void;
}

/** Imports the file into a new temporary data directory and builds the server's environment. */
export async function prepareReplay(
  file: TimelineFile,
  options: { path: string; host: string; port: string; lang: Locale },
): Promise<ReplaySetup> {
  const dir = mkdtempSync(join(tmpdir(), 'podscope-replay-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const store = openStore({ path: dir });
    let id: string;
    try {
      id = (await new TimelinesService(savedInStore(store)).importFile(file)).id;
    } finally {
      store.close();
    }
    const env = serveEnv({ host: options.host, port: options.port, data: dir });
    delete env.PODSCOPE_CRI;
    env.PODSCOPE_SIM_NODES = '0';
    env.PODSCOPE_REPLAY_FILE = resolve(options.path);
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const url = `http://${host}:${options.port}/${options.lang}/t/${id}`;
    return { id, url, env, dataDir: dir, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'serve the console on a timeline file, read-only',
  usage,
  async run(args) {
    const { values, positionals } = parse(args, {
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      lang: { type: 'string', default: 'en' },
    });
    const [path, extra] = positionals;
    if (!path) throw new UsageError('give the timeline FILE to replay');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535)
      throw new UsageError(`--port ${values.port}: give a port number`);
    if (!isLocale(values.lang))
      throw new UsageError(`--lang ${values.lang}: one of ${LOCALES.join(', ')}`);
    let file: TimelineFile;
    try {
      file = await readTimelineFileFrom(path);
    } catch (err) {
      if (!(err instanceof TimelineFileError)) throw err;
      process.stderr.write(
        `${['podscope replay: refused', ...refusalLines(path, err)].join('\n')}\n`,
      );
      return 1;
    }
    const setup = await prepareReplay(file, {
      path,
      host: values.host,
      port: values.port,
      lang: values.lang,
    });
    try {
      process.stdout.write(`${setup.url}\n`);
      process.stderr.write('serving the timeline read-only; Ctrl-C stops the server\n');
      return await runServer(setup.env, { quiet: true });
    } finally {
      setup.cleanup();
    }
  },
};
