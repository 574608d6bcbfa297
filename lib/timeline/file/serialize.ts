/**
 * Writing a timeline file. The header comes first (so `head` shows what a file is), then the
 * initial state on one line, then one event per line: a file diffs and greps well, and a syntax
 * error's line number points at one event.
 */
import { encode } from '../codec';
import type { TimelineFile } from './types';

export function serializeTimelineFile(file: TimelineFile): string {
  const header = {
    format: file.format,
    version: file.version,
    title: file.title,
    notes: file.notes,
    createdAt: file.createdAt,
    from: file.from,
    to: file.to,
    source: file.source,
    annotations: file.annotations,
  };
  const head = encode(header).slice(0, -1);
  const events =
    file.events.length > 0 ? `\n${file.events.map((e) => encode(e)).join(',\n')}\n` : '';
  return `${head},\n"initialState":${encode(file.initialState)},\n"events":[${events}]}\n`;
}
