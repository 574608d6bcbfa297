/**
 * Reading a timeline file: size → JSON (located syntax errors) → header (not a timeline, newer
 * version) → generic bounds → schema (located issues) → consistency → Dates revived. Every
 * refusal is a TimelineFileError and nothing else: whatever the input, parsing either returns a
 * file that replays with the shared reducer or throws that one error type.
 */
import type { $ZodIssue } from 'zod/v4/core';
import { reviveInPlace } from '../codec';
import type { ClusterState } from '../state';
import type { TimelineEvent } from '../events';
import { checkBounds } from './bounds';
import { checkConsistency } from './consistency';
import { IssueList, TimelineFileError, type FileErrorData } from './errors';
import { DEFAULT_LIMITS, describeBytes, withLimits, type FileLimits } from './limits';
import { buildSchema, type TimelineFileSchema } from './schema';
import { scanJsonLimits } from './scan';
import { decodeUtf8, parseJson } from './text';
import { TIMELINE_FORMAT, TIMELINE_VERSION, type TimelineFile } from './types';

export interface ParseOptions {
  limits?: Partial<FileLimits>;
}

let defaultSchema: TimelineFileSchema | undefined;
function schemaFor(limits: FileLimits): TimelineFileSchema {
  const isDefault = (Object.keys(DEFAULT_LIMITS) as (keyof FileLimits)[]).every(
    (k) => limits[k] === DEFAULT_LIMITS[k],
  );
  if (!isDefault) return buildSchema(limits);
  defaultSchema ??= buildSchema(DEFAULT_LIMITS);
  return defaultSchema;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function tooLarge(what: string): TimelineFileError {
  return new TimelineFileError('TOO_LARGE', [{ path: '(root)', message: what }]);
}

/** Parses uncompressed bytes (UTF-8 JSON). A gzip stream must be decompressed first (gzip.ts, or zlib on a server). */
export function parseTimelineBytes(bytes: Uint8Array, options: ParseOptions = {}): TimelineFile {
  const limits = withLimits(options.limits);
  if (isGzip(bytes)) {
    throw new TimelineFileError('BAD_GZIP', [
      { path: '(root)', message: 'the data is gzip-compressed; decompress it before parsing' },
    ]);
  }
  if (bytes.length > limits.maxBytes)
    throw tooLarge(`${bytes.length} bytes; the limit is ${describeBytes(limits.maxBytes)}`);
  const text = decodeUtf8(bytes);
  scanJsonLimits(text, limits);
  return parseDocument(parseJson(text), limits);
}

export function parseTimelineText(text: string, options: ParseOptions = {}): TimelineFile {
  const limits = withLimits(options.limits);
  // A UTF-8 encoding takes 1 to 3 bytes per UTF-16 unit: count exactly only when it matters.
  if (text.length > limits.maxBytes)
    throw tooLarge(
      `more than ${limits.maxBytes} bytes; the limit is ${describeBytes(limits.maxBytes)}`,
    );
  if (text.length * 3 > limits.maxBytes) {
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > limits.maxBytes)
      throw tooLarge(`${bytes} bytes; the limit is ${describeBytes(limits.maxBytes)}`);
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  scanJsonLimits(body, limits);
  return parseDocument(parseJson(body), limits);
}

export type ParseResult = { ok: true; file: TimelineFile } | { ok: false; error: FileErrorData };

/** Like the parse functions, but returns the error as data. Any other exception is a bug and propagates. */
export function safeParseTimeline(
  input: string | Uint8Array,
  options: ParseOptions = {},
): ParseResult {
  try {
    const file =
      typeof input === 'string'
        ? parseTimelineText(input, options)
        : parseTimelineBytes(input, options);
    return { ok: true, file };
  } catch (err) {
    if (err instanceof TimelineFileError) return { ok: false, error: err.toData() };
    throw err;
  }
}

/** Validates an already-parsed JSON value (its Dates still strings) as a timeline file. */
export function parseDocument(doc: unknown, limits: FileLimits = DEFAULT_LIMITS): TimelineFile {
  checkHeader(doc);
  const bounds = new IssueList(limits.maxIssues);
  const forbidden = new IssueList(limits.maxIssues);
  checkBounds(doc, limits, bounds, forbidden);
  bounds.throwIfAny('TOO_LARGE');
  forbidden.throwIfAny('INVALID');

  const result = schemaFor(limits).safeParse(doc);
  if (!result.success) {
    const issues = new IssueList(limits.maxIssues);
    for (const issue of result.error.issues) addZodIssue(issues, issue, doc);
    throw new TimelineFileError('INVALID', issues.items, issues.more);
  }
  const consistency = new IssueList(limits.maxIssues);
  checkConsistency(result.data, consistency);
  consistency.throwIfAny('INVALID');
  // The schema transforms nothing (no defaults, no coercion): its output equals the document
  // except for key order. Keep the document, so a file re-exported after import reads the same.
  const checked = doc as typeof result.data;
  reviveInPlace(checked.initialState);
  reviveInPlace(checked.events);
  return {
    ...checked,
    initialState: checked.initialState as unknown as ClusterState,
    events: checked.events as unknown as TimelineEvent[],
  };
}

function checkHeader(doc: unknown): void {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    const got = doc === null ? 'null' : Array.isArray(doc) ? 'an array' : typeof doc;
    throw new TimelineFileError('NOT_A_TIMELINE', [
      { path: '(root)', message: `expected a JSON object, got ${got}` },
    ]);
  }
  const { format, version } = doc as { format?: unknown; version?: unknown };
  if (format !== TIMELINE_FORMAT) {
    throw new TimelineFileError('NOT_A_TIMELINE', [
      {
        path: 'format',
        message:
          format === undefined
            ? `missing; a timeline file has "format": "${TIMELINE_FORMAT}"`
            : `expected "${TIMELINE_FORMAT}", got ${preview(format)}`,
      },
    ]);
  }
  if (typeof version === 'number' && Number.isInteger(version) && version > TIMELINE_VERSION) {
    throw new TimelineFileError('UNSUPPORTED_VERSION', [
      {
        path: 'version',
        message: `this file is format version ${version}; this Podscope reads version ${TIMELINE_VERSION} — open it with a newer Podscope`,
      },
    ]);
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function valueAt(doc: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = doc;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/** zod's issues in the file's words: located, short, and with the offending size where it helps. */
function addZodIssue(issues: IssueList, issue: $ZodIssue, doc: unknown): void {
  const path = issue.path;
  switch (issue.code) {
    case 'unrecognized_keys':
      for (const key of issue.keys) issues.add([...path, key], 'unknown field');
      return;
    case 'too_big': {
      const value = valueAt(doc, path);
      if (typeof value === 'string')
        issues.add(path, `too long (${value.length} characters; the limit is ${issue.maximum})`);
      else if (Array.isArray(value))
        issues.add(path, `too many items (${value.length}; the limit is ${issue.maximum})`);
      else issues.add(path, `too large (the limit is ${issue.maximum})`);
      return;
    }
    case 'too_small': {
      const value = valueAt(doc, path);
      if (typeof value === 'string' && issue.minimum === 1) issues.add(path, 'must not be empty');
      else issues.add(path, `too small (the minimum is ${issue.minimum})`);
      return;
    }
    case 'invalid_union':
      if ((issue as { note?: string }).note === 'No matching discriminator') {
        const options = (issue as { options?: unknown[] }).options ?? [];
        issues.add(
          path,
          `unknown ${String(path[path.length - 1] ?? 'kind')} ${preview(valueAt(doc, path))}; expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}`,
        );
        return;
      }
      issues.add(path, 'matches none of the allowed shapes');
      return;
    case 'invalid_value':
      if (valueAt(doc, path) === undefined) {
        issues.add(
          path,
          `missing; expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`,
        );
        return;
      }
      issues.add(
        path,
        `${preview(valueAt(doc, path))} is not allowed; expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`,
      );
      return;
    case 'invalid_type':
      if (valueAt(doc, path) === undefined) issues.add(path, `missing; expected ${issue.expected}`);
      else issues.add(path, issue.message.replace(/^Invalid input: /, ''));
      return;
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_element':
    case 'not_multiple_of':
    case 'custom':
      issues.add(path, issue.message.replace(/^Invalid (input|option): /, ''));
  }
}
