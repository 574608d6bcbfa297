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
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
