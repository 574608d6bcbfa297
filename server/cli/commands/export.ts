/**
 * `podscope export ID --out FILE [--data DIR] [--gzip]`: writes a saved timeline as a
 * self-contained file (FORMAT.md). "-" writes to standard output; a name ending in .gz, or
 * --gzip, compresses it. Written to a temporary name and renamed, so no half file is left.
 */
import { openStore } from '@/server/timeline-db';
import {
  TimelinesService,
  dataDir,
  requireDataDir,
  savedInStore,
  writeAtomically,
} from '@/server/timelines';
import type { Command } from '../command';
import { UsageError } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope export ID --out FILE [--data DIR] [--gzip]

Writes saved timeline ID (from the console's "Copy link", or \`podscope import\`) as a timeline
file that replays anywhere: \`podscope replay FILE\`, or the console's import page.

  --out FILE   where to write it ("-" for standard output)
  --data DIR   the server's data directory (default: $PODSCOPE_DATA_DIR or .podscope)
  --gzip       compress (also when FILE ends in .gz)`;

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a saved timeline to a file',
  usage,
  async run(args) {
    const { values, positionals } = parse(args, {
      out: { type: 'string' },
      data: { type: 'string' },
      gzip: { type: 'boolean', default: false },
    });
    const [id, extra] = positionals;
    if (!id) throw new UsageError('give the ID of the saved timeline to export');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    if (!values.out) throw new UsageError('give --out FILE ("-" for standard output)');
    const dir = dataDir(values.data);
    requireDataDir(dir);
    const store = openStore({ path: dir });
    try {
      const gzip = values.gzip || values.out.endsWith('.gz');
      const file = await new TimelinesService(savedInStore(store)).exportBytes(id, { gzip });
      await writeAtomically(values.out, file.body);
      if (values.out !== '-')
        process.stderr.write(`wrote ${values.out} (${file.body.length} bytes)\n`);
      return 0;
    } finally {
      store.close();
    }
  },
};
