import { describe, expect, it } from 'vitest';
import { compressibleEventStream, oneChunkPerMessage } from './compress';

const stream = (headers: Record<string, string>) =>
  new Response('data: {}\n\n', { status: 200, statusText: 'OK', headers });

describe('compressibleEventStream', () => {
  it('drops no-transform from an event stream, keeping the other directives and headers', async () => {
    const res = compressibleEventStream(
      stream({
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      }),
    );
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('data: {}\n\n');
  });

  it('removes Cache-Control when no-transform was all it said', () => {
    const res = compressibleEventStream(
      stream({ 'content-type': 'text/event-stream', 'cache-control': 'No-Transform' }),
    );
    expect(res.headers.has('cache-control')).toBe(false);
  });

  it('leaves other responses alone (the same object)', () => {
    const json = new Response('{}', {
      headers: { 'content-type': 'application/json', 'cache-control': 'no-transform' },
    });
    expect(compressibleEventStream(json)).toBe(json);
    const plain = stream({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    expect(compressibleEventStream(plain)).toBe(plain);
  });

  it('regroups an event stream into one chunk per message, as tRPC writes each in parts', async () => {
    const enc = new TextEncoder();
    const parts = ['data: {"a":1}\n', 'id: 7\n', '\n\n', 'event: ping\n', 'data: \n', '\n', '\n'];
    parts.push('data: {"tail":true}\n');
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });
    const res = compressibleEventStream(
      new Response(body, {
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-transform' },
      }),
    );
    const chunks: string[] = [];
    const dec = new TextDecoder();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(dec.decode(value));
    }
    // A message ends at its blank line even when the "\n\n" comes in two chunks; the last,
    // unended one is released when the stream ends.
    expect(chunks).toEqual([
      'data: {"a":1}\nid: 7\n\n\n',
      'event: ping\ndata: \n\n',
      '\ndata: {"tail":true}\n',
    ]);
    expect(chunks.join('')).toBe(parts.join(''));
  });

  it('passes a message through whole when it comes as one chunk', async () => {
    const out: Uint8Array[] = [];
    const w = oneChunkPerMessage();
    const writer = w.writable.getWriter();
    const read = (async () => {
      for await (const c of w.readable as unknown as AsyncIterable<Uint8Array>) out.push(c);
    })();
    const one = new TextEncoder().encode('data: 1\n\n');
    await writer.write(one);
    await writer.close();
    await read;
    expect(out).toEqual([one]);
  });
});
