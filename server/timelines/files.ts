/**
 * Timeline files on disk, for the CLI (record, replay, import, export): reading one within the
 * limits, describing a refusal for a terminal, writing atomically, and the data directory.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  DEFAULT_LIMITS,
  TimelineFileError,
  formatIssue,
  inertText,
  type TimelineFile,
} from '@/lib/timeline/file';
import { DEFAULT_DIR } from '@/server/timeline-db';
import { decodeUpload } from './decode';

const MAX_UPLOAD = Math.max(DEFAULT_LIMITS.maxBytes, DEFAULT_LIMITS.maxCompressedBytes);

/** `--data DIR`, else PODSCOPE_DATA_DIR, else `.podscope`. */
export function dataDir(flag: string | undefined): string {
  return resolve(flag ?? process.env.PODSCOPE_DATA_DIR ?? DEFAULT_DIR);
}

/** Reads FILE (standard input for "-") without holding more than the limit, then validates it. */
export async function readTimelineFileFrom(path: string): Promise<TimelineFile> {
  if (path === '-') return decodeUpload(await readStream(process.stdin, MAX_UPLOAD));
  const size = statSync(path).size;
  if (size > MAX_UPLOAD) {
    throw new TimelineFileError('TOO_LARGE', [
      { path: '(root)', message: `${size} bytes; the limit is ${MAX_UPLOAD}` },
    ]);
  }
  return decodeUpload(readFileSync(path));
}

async function readStream(stream: AsyncIterable<Buffer | string>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > max) {
      throw new TimelineFileError('TOO_LARGE', [
        { path: '(root)', message: `more than ${max} bytes; the limit is ${max}` },
      ]);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** A refusal as terminal lines: what was refused and why, then each located issue, all inert. */
export function refusalLines(source: string, err: TimelineFileError): string[] {
  const headline = err.message.split(': ')[0] ?? err.code;
  const lines = [`${inertText(source, { max: 200 })}: ${headline}`];
  for (const issue of err.issues) lines.push(`  ${inertText(formatIssue(issue), { max: 400 })}`);
  if (err.more > 0) lines.push(`  (and ${err.more} more)`);
  return lines;
}

/** Writes beside the target, then renames, so no reader sees half a file. "-" is standard output. */
export async function writeAtomically(path: string, body: Uint8Array): Promise<void> {
  if (path === '-') {
    await new Promise<void>((done, fail) =>
      process.stdout.write(body, (err) => (err ? fail(err) : done())),
    );
    return;
  }
  const target = resolve(path);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    await writeFile(tmp, body);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Export and replay read an existing store; they must not create an empty one by accident. */
export function requireDataDir(dir: string): void {
  if (!existsSync(dir)) throw new Error(`no Podscope data in ${dir} (give --data DIR)`);
}
