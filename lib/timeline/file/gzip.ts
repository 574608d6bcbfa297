/**
 * Gzip-compressed timeline files, read with the platform's DecompressionStream (browsers and
 * Node both have it), guarded against zip bombs: decompression stops as soon as the output
 * passes the limit. Servers may use zlib instead (server/timelines); the limits are the same.
 */
import { TimelineFileError } from './errors';
import { withLimits } from './limits';
import { isGzip, parseTimelineBytes, type ParseOptions } from './parse';
import type { TimelineFile } from './types';

export async function gunzipLimited(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  // A copy backed by a plain ArrayBuffer, which is what the stream accepts.
  const chunk = new Uint8Array(bytes);
  const input = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader();
  let out: Uint8Array | undefined;
  try {
    out = await readStreamLimited(reader, maxBytes);
  } catch (err) {
    throw new TimelineFileError('BAD_GZIP', [
      { path: '(root)', message: err instanceof Error ? err.message : String(err) },
    ]);
  }
  if (out === undefined) {
    throw new TimelineFileError('TOO_LARGE', [
      {
        path: '(root)',
        message: `decompresses to more than ${maxBytes} bytes (the limit); refused before reading further`,
      },
    ]);
  }
  return out;
}

/**
 * Reads a byte stream to its end into one array, or stops (cancelling the stream) as soon as it
 * passes `maxBytes` and returns undefined. Stream errors are thrown as they come.
 */
export async function readStreamLimited(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Parses a file's bytes, plain or gzip-compressed (detected by its magic bytes). */
export async function readTimelineFile(
  bytes: Uint8Array,
  options: ParseOptions = {},
): Promise<TimelineFile> {
  const limits = withLimits(options.limits);
  if (!isGzip(bytes)) return parseTimelineBytes(bytes, options);
  if (bytes.length > limits.maxCompressedBytes) {
    throw new TimelineFileError('TOO_LARGE', [
      {
        path: '(root)',
        message: `${bytes.length} compressed bytes; the limit is ${limits.maxCompressedBytes}`,
      },
    ]);
  }
  return parseTimelineBytes(await gunzipLimited(bytes, limits.maxBytes), options);
}
