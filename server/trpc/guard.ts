/**
 * What the tRPC route checks before tRPC reads a request, and adds to every answer:
 * - only JSON: a POST must say `application/json` (multipart, form and text bodies — the kinds
 *   another site's page can send without asking — are refused with 415, before any procedure);
 * - at most `maxBatch` calls in one batch (one small GET could otherwise ask for a hundred
 *   expensive answers at once);
 * - a body no larger than its procedure needs (timeline imports: the import limit as base64);
 * - `Cache-Control: no-store` on every answer: they carry cluster state and saved timelines.
 */
import { MAX_REQUEST_BYTES, describeBytes } from '@/lib/timeline/file/limits';

/** Any body other than an import's: a save with a thousand 16 KiB annotations fits. */
export const TRPC_MAX_BODY_BYTES = 20 * 1024 * 1024;

const IMPORT = 'timelines.import';

/** The procedures a request calls (`a.b,c.d` for a batch). */
export function procedurePaths(url: URL, endpoint = '/api/trpc'): string[] {
  const rest = url.pathname.slice(endpoint.length).replace(/^\/+/, '');
  let decoded = rest;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    // left as it is: tRPC answers NOT_FOUND for a path it does not know
  }
  return decoded.split(',').filter(Boolean);
}

export const callsImport = (paths: readonly string[]) => paths.includes(IMPORT);

/** A tRPC-shaped error answer, as the client link expects one. */
export function trpcError(
  status: number,
  code: string,
  jsonRpcCode: number,
  message: string,
): Response {
  return Response.json(
    { error: { message, code: jsonRpcCode, data: { code, httpStatus: status } } },
    { status, headers: { 'cache-control': 'no-store' } },
  );
}

/** A refusal for requests tRPC must not see; undefined to go on. */
export function refuseRequest(
  req: Request,
  paths: readonly string[],
  maxBatch: number,
): Response | undefined {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  if (
    (hasBody && type !== 'application/json') ||
    (!hasBody && type !== '' && type !== 'application/json')
  ) {
    return trpcError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      -32015,
      `send tRPC calls as application/json (got ${type || 'no content type'})`,
    );
  }
  if (paths.length > maxBatch) {
    return trpcError(
      400,
      'BAD_REQUEST',
      -32600,
      `a batch may hold at most ${maxBatch} calls (PODSCOPE_TRPC_MAX_BATCH); this one has ${paths.length}`,
    );
  }
  const max = bodyLimit(paths);
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) return tooLarge(max);
  return undefined;
}

export const bodyLimit = (paths: readonly string[]) =>
  callsImport(paths) ? MAX_REQUEST_BYTES : TRPC_MAX_BODY_BYTES;

function tooLarge(max: number): Response {
  return trpcError(
    413,
    'PAYLOAD_TOO_LARGE',
    -32013,
    `the request body is larger than ${describeBytes(max)}`,
  );
}

/**
 * The request with a body that fails once it passes `max` bytes (a body sent without a
 * Content-Length is counted as it arrives).
 */
export function withBodyLimit(req: Request, max: number): Request {
  if (!req.body) return req;
  let seen = 0;
  const counted = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max)
          controller.error(new Error(`the request body is larger than ${describeBytes(max)}`));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(req.url, {
    method: req.method,
    headers: req.headers,
    body: counted,
    signal: req.signal,
    duplex: 'half',
  } as RequestInit);
}

/** The answer with `Cache-Control: no-store`, and `onDone` called once its body has been sent. */
export function finishResponse(res: Response, onDone?: () => void): Response {
  const headers = new Headers(res.headers);
  headers.set('cache-control', 'no-store');
  let body: ReadableStream<Uint8Array> | null = res.body;
  if (onDone) {
    if (!body) onDone();
    else
      body = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          flush: () => onDone(),
        }),
      );
  }
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}
