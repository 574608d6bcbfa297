import { afterEach, describe, expect, it } from 'vitest';
import { FastTextEncoderStream, installTextEncoderStream } from './text-encoder-stream';

const NativeTextEncoderStream = globalThis.TextEncoderStream;
afterEach(() => {
  globalThis.TextEncoderStream = NativeTextEncoderStream;
});

/** What a stream writes for `chunks`, as one byte array (chunk boundaries are not the contract). */
async function encoded(
  stream: { readable: ReadableStream<Uint8Array>; writable: WritableStream<string> },
  chunks: unknown[],
): Promise<number[]> {
  const out: number[] = [];
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(...r.value);
  })();
  const writer = stream.writable.getWriter();
  for (const c of chunks) await writer.write(c as string);
  await writer.close();
  await reading;
  return out;
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNITS = ['a', 'é', '€', '\n', '\ud83d', '\ude00', '\ud83d\ude00', '\udfff', '\ud800', ''];

describe('FastTextEncoderStream', () => {
  it('writes what Node’s TextEncoderStream writes, on chunks cut anywhere (surrogate pairs too)', async () => {
    const next = random(20261204);
    for (let run = 0; run < 300; run++) {
      const chunks: unknown[] = [];
      const n = Math.floor(next() * 8);
      for (let i = 0; i < n; i++) {
        let s = '';
        const len = Math.floor(next() * 6);
        for (let j = 0; j < len; j++) s += UNITS[Math.floor(next() * UNITS.length)];
        chunks.push(s);
      }
      const expected = await encoded(new NativeTextEncoderStream(), chunks);
      expect(await encoded(new FastTextEncoderStream(), chunks), JSON.stringify(chunks)).toEqual(
        expected,
      );
    }
  });

  it('joins a pair split across chunks, writes lone halves and a dangling high half as U+FFFD', async () => {
    const bytes = (s: string) => [...new TextEncoder().encode(s)];
    expect(await encoded(new FastTextEncoderStream(), ['x\ud83d', '\ude00y'])).toEqual(
      bytes('x😀y'),
    );
    expect(await encoded(new FastTextEncoderStream(), ['\ud83d', '', 'z'])).toEqual(
      bytes('\ufffdz'),
    );
    expect(await encoded(new FastTextEncoderStream(), ['\ude00', 'a\ud83d'])).toEqual(
      bytes('\ufffda\ufffd'),
    );
    // Not a string: written as String() of it, as the standard says.
    expect(await encoded(new FastTextEncoderStream(), [42, null])).toEqual(bytes('42null'));
  });

  it('looks like a TextEncoderStream, and pipes as one', async () => {
    const s = new FastTextEncoderStream();
    expect(s.encoding).toBe('utf-8');
    expect(Object.prototype.toString.call(s)).toBe('[object TextEncoderStream]');
    const source = new ReadableStream<string>({
      start(c) {
        c.enqueue('data: {"a":1}\n');
        c.enqueue('\n');
        c.close();
      },
    });
    const text = await new Response(source.pipeThrough(new FastTextEncoderStream())).text();
    expect(text).toBe('data: {"a":1}\n\n');
  });

  it('installs itself as the global TextEncoderStream', () => {
    installTextEncoderStream();
    expect(new TextEncoderStream()).toBeInstanceOf(FastTextEncoderStream);
  });
});
