import { describe, expect, it } from 'vitest';
import { TimelineFileError } from './errors';
import { gunzipLimited, readTimelineFile } from './gzip';
import { serializeTimelineFile } from './serialize';
import { sampleFile } from './testing';

/** gzip through the platform's CompressionStream, from `count` chunks (so a bomb needs no big buffer). */
async function gzip(chunk: Uint8Array, count = 1): Promise<Uint8Array> {
  let sent = 0;
  const source = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (sent++ < count) controller.enqueue(new Uint8Array(chunk));
      else controller.close();
    },
  });
  const out = source.pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(out).arrayBuffer());
}

async function refusal(p: Promise<unknown>): Promise<TimelineFileError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TimelineFileError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('gzip-compressed timeline files', () => {
  const sample = sampleFile();
  const bytes = new TextEncoder().encode(serializeTimelineFile(sample));

  it('reads a gzip file like the plain one', async () => {
    const packed = await gzip(bytes);
    expect(packed[0]).toBe(0x1f);
    expect(packed.length).toBeLessThan(bytes.length);
    expect(await readTimelineFile(packed)).toEqual(sample);
    expect(await readTimelineFile(bytes)).toEqual(sample);
  });

  it('refuses a zip bomb while decompressing, at the byte limit', async () => {
    // 64 MiB of zeros compresses to about 64 KiB.
    const bomb = await gzip(new Uint8Array(1024 * 1024), 64);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const err = await refusal(readTimelineFile(bomb));
    expect(err.code).toBe('TOO_LARGE');
    expect(err.issues[0]?.message).toBe(
      `decompresses to more than ${50 * 1024 * 1024} bytes (the limit); refused before reading further`,
    );
  });

  it('stops at a custom limit', async () => {
    const packed = await gzip(bytes);
    const err = await refusal(gunzipLimited(packed, 100));
    expect(err.code).toBe('TOO_LARGE');
    expect(
      (await refusal(readTimelineFile(packed, { limits: { maxCompressedBytes: 10 } }))).issues[0]
        ?.message,
    ).toMatch(/compressed bytes; the limit is 10$/);
  });

  it('refuses a damaged or truncated stream', async () => {
    const packed = await gzip(bytes);
    const truncated = packed.slice(0, Math.floor(packed.length / 2));
    expect((await refusal(readTimelineFile(truncated))).code).toBe('BAD_GZIP');
    const damaged = packed.slice();
    for (let i = 12; i < 40; i++) damaged[i] = 0xff;
    expect((await refusal(readTimelineFile(damaged))).code).toBe('BAD_GZIP');
  });

  it('validates what it decompressed', async () => {
    const err = await refusal(
      readTimelineFile(await gzip(new TextEncoder().encode('{"format":"x"}'))),
    );
    expect(err.code).toBe('NOT_A_TIMELINE');
  });
});
