/**
 * TextEncoderStream as the Encoding Standard defines it, one TextEncoder call per chunk.
 *
 * tRPC writes its SSE streams (cluster.watch) as strings through `new TextEncoderStream()`. The
 * one in Node 20 (lib/internal/webstreams/encoding.js) builds each chunk's output one UTF-16
 * unit at a time — a string concatenation per character — before encoding it: under the cluster
 * ingest benchmark a fifth of everything the console allocated, and its time with it, went
 * there. This one hands the whole chunk to TextEncoder, which already writes a lone surrogate as
 * U+FFFD; all that is left to the stream is a high surrogate at the end of a chunk, held for the
 * next one (a pair split across two chunks is one character), and one left at the end, written
 * as U+FFFD. text-encoder-stream.test.ts checks it against Node's own on the same chunks.
 *
 * `installTextEncoderStream()` puts it in place of the global for the server process
 * (instrumentation.ts), so tRPC's `new TextEncoderStream()` gets it.
 */

const REPLACEMENT = new Uint8Array([0xef, 0xbf, 0xbd]);

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

export class FastTextEncoderStream {
  readonly encoding = 'utf-8';
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<string>;

  constructor() {
    const encoder = new TextEncoder();
    /** A high surrogate that ended the last chunk (its low half may begin the next). */
    let pending = '';
    const { readable, writable } = new TransformStream<unknown, Uint8Array>({
      transform(chunk, controller) {
        let text = pending + String(chunk);
        pending = '';
        if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
          pending = text.slice(-1);
          text = text.slice(0, -1);
        }
        if (text.length > 0) controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        if (pending !== '') controller.enqueue(REPLACEMENT.slice());
      },
    });
    this.readable = readable;
    this.writable = writable;
  }

  get [Symbol.toStringTag](): string {
    return 'TextEncoderStream';
  }
}

/** Makes `globalThis.TextEncoderStream` this one (in the server process; idempotent). */
export function installTextEncoderStream(): void {
  globalThis.TextEncoderStream = FastTextEncoderStream as unknown as typeof TextEncoderStream;
}
