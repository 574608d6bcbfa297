/**
 * `podscope import FILE [--data DIR]`: validates a timeline file (plain or gzip; "-" reads
 * standard input) and stores it as a saved timeline. Stable output contract: the new id on one
 * line of stdout, exit 0. A refused file prints its located issues on stderr, exits 1 and stores
 * nothing.
 */
import { TimelineFileError, inertText } from '@/lib/timeline/file';
import { openStore } from '@/server/timeline-db';
import {
  TimelinesService,
  dataDir,
  savedInStore,
  readTimelineFileFrom,
  refusalLines,
} from '@/server/timelines';
import type { Command } from '../command';
import { UsageError } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope import FILE [--data DIR]

Checks a timeline file (JSON or gzip, as "Export file" or \`podscope record\` write it; "-" reads
standard input) and stores it as a saved timeline in DIR (default: $PODSCOPE_DATA_DIR or
.podscope). Prints the new timeline's id; open it at /<locale>/t/<id> on a server using DIR.
A file that is refused prints where and why, stores nothing and exits 1.

  --data DIR   the data directory of the server that will show it`;

export const importCommand: Command = {
  name: 'import',
  summary: 'store a timeline file as a saved timeline (prints its id)',
  usage,
  async run(args) {
    const { values, positionals } = parse(args, { data: { type: 'string' } });
    const [path, extra] = positionals;
    if (!path) throw new UsageError('give the timeline FILE to import');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    let file;
    try {
      file = await readTimelineFileFrom(path);
    } catch (err) {
      if (!(err instanceof TimelineFileError)) throw err;
      process.stderr.write(
        `${['podscope import: refused', ...refusalLines(path, err)].join('\n')}\n`,
      );
      return 1;
    }
    const store = openStore({ path: dataDir(values.data) });
    try {
      const saved = await new TimelinesService(savedInStore(store)).importFile(file);
      process.stderr.write(
        `imported "${inertText(saved.title, { max: 80 })}": ${saved.eventCount} events, ${saved.annotationCount} annotations\n`,
      );
      process.stdout.write(`${saved.id}\n`);
      return 0;
    } finally {
      store.close();
    }
  },
};
