/**
 * Turning an upload into a validated timeline file on the server: gzip detected by its magic
 * bytes and inflated with zlib under the same limit the browser uses (zlib stops as soon as the
 * output passes `maxOutputLength`, so a zip bomb costs a few milliseconds), then the shared
 * parser. Every refusal is a TimelineFileError.
 */
import { gunzipSync } from 'node:zlib';
import {
  TimelineFileError,
  isGzip,
  parseTimelineBytes,
  parseTimelineText,
  withLimits,
  type FileLimits,
  type TimelineFile,
} from '@/lib/timeline/file';

export function decodeUpload(bytes: Uint8Array, over?: Partial<FileLimits>): TimelineFile {
  const limits = withLimits(over);
  if (!isGzip(bytes)) return parseTimelineBytes(bytes, { limits });
  if (bytes.length > limits.maxCompressedBytes) {
    throw new TimelineFileError('TOO_LARGE', [
      {
        path: '(root)',
        message: `${bytes.length} compressed bytes; the limit is ${limits.maxCompressedBytes}`,
      },
    ]);
  }
  let inflated: Buffer;
  try {
    inflated = gunzipSync(bytes, { maxOutputLength: limits.maxBytes });
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TimelineFileError('TOO_LARGE', [
        {
          path: '(root)',
          message: `decompresses to more than ${limits.maxBytes} bytes (the limit); refused before reading further`,
        },
      ]);
    }
    throw new TimelineFileError('BAD_GZIP', [
      { path: '(root)', message: err instanceof Error ? err.message : String(err) },
    ]);
  }
  return parseTimelineBytes(inflated, { limits });
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * A file sent as a string (tRPC `timelines.import`): JSON text as it is, or the file's bytes in
 * base64 (how a gzip file travels in JSON). Anything else is parsed as JSON, which locates the
 * first character that is not.
 */
export function decodeTextUpload(text: string, over?: Partial<FileLimits>): TimelineFile {
  const limits = withLimits(over);
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('\ufeff'))
    return parseTimelineText(text, { limits });
  const compact = text.replace(/\s+/g, '');
  if (compact.length > 0 && BASE64.test(compact)) {
    if (compact.length > Math.ceil((limits.maxBytes * 4) / 3) + 4) {
      throw new TimelineFileError('TOO_LARGE', [
        {
          path: '(root)',
          message: `base64 text of ${compact.length} characters is beyond the size limit`,
        },
      ]);
    }
    return decodeUpload(Buffer.from(compact, 'base64'), limits);
  }
  return parseTimelineText(text, { limits });
}
