/**
 * The download and upload route handlers' work, as functions of (service, Request) so they are
 * tested without Next: `GET /api/timelines/<id>/export[?gzip=1]` and `POST /api/timelines/import`.
 */
import {
  DEFAULT_LIMITS,
  describeBytes,
  isTimelineFileError,
  readStreamLimited,
  type FileErrorData,
  type TimelineFileError,
} from '@/lib/timeline/file';
import {
  isPodscopeStoreError,
  type PodscopeStoreError,
  type SavedTimeline,
} from '@/server/timeline-db';
import { busyMessage, type ImportGate } from './gate';
import type { TimelinesService } from './service';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/**
 * Bodies a cross-site page cannot send without a CORS preflight (which this server never
 * answers), so another site cannot make a browser import into this one.
 */
const UPLOAD_TYPES = new Set(['application/json', 'application/gzip', 'application/octet-stream']);

function json(body: unknown, status: number): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

function fileError(err: TimelineFileError | FileErrorData, status = 400): Response {
  const error = isTimelineFileError(err) ? err.toData() : err;
  return json({ error }, error.code === 'TOO_LARGE' ? 413 : status);
}

/** A store error without the database's path; recognised by brand (see server/timeline-db/errors.ts). */
function storeError(err: PodscopeStoreError): Response {
  const status =
    err.code === 'NOT_FOUND'
      ? 404
      : err.code === 'INVALID' || err.code === 'TOO_LARGE'
        ? 400
        : err.code === 'QUOTA'
          ? 507
          : err.code === 'UNAVAILABLE'
            ? 503
            : 500;
  return json({ error: { code: err.code, message: err.publicMessage } }, status);
}

/** `attachment; filename=…` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function handleExport(
  service: TimelinesService,
  id: string,
  url: URL,
  /** The timeline as the asking viewer may see it (default: whole). */
  saved?: SavedTimeline,
): Promise<Response> {
  if (!ID.test(id))
    return json(
      { error: { code: 'INVALID', message: 'a timeline id is letters, digits, - and _' } },
      400,
    );
  const gzip = url.searchParams.get('gzip');
  try {
    const file = await service.exportBytes(id, {
      gzip: gzip === '1' || gzip === 'true',
      ...(saved ? { saved } : {}),
    });
    return new Response(new Uint8Array(file.body), {
      status: 200,
      headers: {
        ...NO_STORE,
        'content-type': file.contentType,
        'content-length': String(file.body.length),
        'content-disposition': contentDisposition(file.filename),
      },
    });
  } catch (err) {
    if (isPodscopeStoreError(err)) return storeError(err);
    throw err;
  }
}

/** Reads at most `max` bytes of the body; undefined when there is more. */
export async function readLimited(req: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!req.body) return new Uint8Array(0);
  return readStreamLimited(req.body.getReader(), max);
}

export async function handleImport(
  service: TimelinesService,
  req: Request,
  gate?: ImportGate,
): Promise<Response> {
  const release = gate ? gate.tryEnter() : () => undefined;
  if (!release) {
    await req.body?.cancel().catch(() => undefined);
    return Response.json(
      { error: { code: 'BUSY', message: busyMessage(gate?.max ?? 0) } },
      { status: 429, headers: { ...NO_STORE, 'retry-after': '1' } },
    );
  }
  try {
    return await importWithin(service, req);
  } finally {
    release();
  }
}

async function importWithin(service: TimelinesService, req: Request): Promise<Response> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!UPLOAD_TYPES.has(type)) {
    return json(
      {
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `send the file as application/json, application/gzip or application/octet-stream (got ${type || 'none'})`,
        },
      },
      415,
    );
  }
  const max = Math.max(DEFAULT_LIMITS.maxBytes, DEFAULT_LIMITS.maxCompressedBytes);
  const body = await readLimited(req, max);
  if (!body) {
    return fileError({
      code: 'TOO_LARGE',
      message: `the upload is larger than ${describeBytes(max)}, the import limit`,
      issues: [
        {
          path: '(root)',
          message: `more than ${describeBytes(max)}; the limit is ${describeBytes(max)}`,
        },
      ],
      more: 0,
    });
  }
  try {
    const timeline = await service.importBytes(body);
    return json({ id: timeline.id, timeline }, 201);
  } catch (err) {
    if (isTimelineFileError(err)) return fileError(err);
    if (isPodscopeStoreError(err)) return storeError(err);
    throw err;
  }
}
