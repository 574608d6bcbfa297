/**
 * Compression for the cluster.watch SSE stream.
 *
 * A live console receives every event as JSON: a container transition is a few events carrying
 * the full V1ContainerStatus, conditions and explanations; a 10,000-pod snapshot is tens of
 * megabytes. The events repeat the same keys and strings over and over, which is exactly what a
 * streaming compressor removes.
 *
 * The console server (`next start`) already gzips text responses, and Next flushes the
 * compressor after every chunk a route writes, so each SSE message (a snapshot, an event, a
 * keep-alive) is decodable the moment it arrives while the compression context lives as long as
 * the connection. tRPC marks its event streams `Cache-Control: no-transform`, which switches that
 * off; this drops the directive (keeping `no-cache`). A route cannot compress by itself: Next
 * removes any Content-Encoding a route handler sets. The browser's network stack undoes the gzip;
 * EventSource, the tRPC client and the reducer see the same text as before.
 *
 * The flush after each chunk is the `compression` middleware's `flush()`, a zlib FULL flush: it
 * also resets the compressor's history, so each chunk is compressed on its own and costs its
 * block headers. tRPC writes a message as three chunks (`data: …`, `id: …`, the blank line); the
 * body is regrouped here into one chunk per message (bench/lib/wire-bytes.ts measures what that
 * and the wire's shape cost).
 */

/** The response with `no-transform` removed from an event stream's Cache-Control; others untouched. */
export function compressibleEventStream(response: Response): Response {
  const type = response.headers.get('content-type') ?? '';
  const cache = response.headers.get('cache-control');
  if (!type.startsWith('text/event-stream') || cache === null || !/no-transform/i.test(cache))
    return response;
  const kept = cache
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '' && d.toLowerCase() !== 'no-transform');
  const headers = new Headers(response.headers);
  if (kept.length > 0) headers.set('cache-control', kept.join(', '));
  else headers.delete('cache-control');
  return new Response(response.body?.pipeThrough(oneChunkPerMessage()) ?? null, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

const LF = 0x0a;

/**
 * Regroups an event stream's bytes into one chunk per SSE message (a chunk that ends a message —
 * with a blank line — releases everything held before it). tRPC writes each message's parts in
 * one go, so nothing waits for a later message.
 */
export function oneChunkPerMessage(): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let size = 0;
  const release = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (held.length === 0) return;
    const out = held.length === 1 ? (held[0] as Uint8Array) : new Uint8Array(size);
    if (held.length > 1) {
      let at = 0;
      for (const part of held) {
        out.set(part, at);
        at += part.length;
      }
    }
    held = [];
    size = 0;
    controller.enqueue(out);
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk.length === 0) return;
      held.push(chunk);
      size += chunk.length;
      const last = chunk[chunk.length - 1];
      // The message's end: this chunk ends in "\n\n", or its one "\n" follows the one held before it.
      const before =
        chunk.length > 1 ? chunk[chunk.length - 2] : held.at(-2)?.[(held.at(-2)?.length ?? 0) - 1];
      if (last === LF && before === LF) release(controller);
    },
    flush: release,
  });
}
