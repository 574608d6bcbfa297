/**
 * Why a timeline file was refused, located: a path into the document (`events[1843].status.state`)
 * for a value that is wrong, or a line, column and byte offset for text that is not JSON.
 */
export type FileErrorCode =
  /** Beyond a size or count limit (bytes, events, depth, a string's length …). */
  | 'TOO_LARGE'
  /** The bytes are not UTF-8 text. */
  | 'NOT_UTF8'
  /** The gzip stream is damaged or truncated. */
  | 'BAD_GZIP'
  /** The text is not JSON. */
  | 'MALFORMED_JSON'
  /** JSON, but not a Podscope timeline (no `"format": "podscope.timeline"`). */
  | 'NOT_A_TIMELINE'
  /** A timeline written by a newer Podscope (format version above what this build reads). */
  | 'UNSUPPORTED_VERSION'
  /** A timeline whose content does not match the schema or does not hold together. */
  | 'INVALID';

export interface FileIssue {
  /** Where in the document: `events[3].status.state`, `(root)` for the whole document. */
  path: string;
  message: string;
  /** For text that is not JSON: 1-based line and column, 0-based UTF-8 byte offset. */
  line?: number;
  column?: number;
  byte?: number;
}

/** The plain-data form of a TimelineFileError, for transports (tRPC, the import route). */
export interface FileErrorData {
  code: FileErrorCode;
  message: string;
  issues: FileIssue[];
  /** How many issues were found beyond those listed. */
  more: number;
}

/** Marks a TimelineFileError whichever copy of this module made it (bundles may hold two). */
const BRAND = Symbol.for('podscope.TimelineFileError');

export class TimelineFileError extends Error {
  override name = 'TimelineFileError';
  readonly [BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isTimelineFileError(value);
  }

  readonly code: FileErrorCode;
  readonly issues: readonly FileIssue[];
  readonly more: number;

  constructor(code: FileErrorCode, issues: readonly FileIssue[], more = 0) {
    super(summarize(code, issues, more));
    this.code = code;
    this.issues = issues;
    this.more = more;
  }

  toData(): FileErrorData {
    return { code: this.code, message: this.message, issues: [...this.issues], more: this.more };
  }
}

export function isTimelineFileError(err: unknown): err is TimelineFileError {
  return typeof err === 'object' && err !== null && (err as { [BRAND]?: unknown })[BRAND] === true;
}

const HEADLINE: Record<FileErrorCode, string> = {
  TOO_LARGE: 'the timeline file is too large',
  NOT_UTF8: 'the timeline file is not UTF-8 text',
  BAD_GZIP: 'the timeline file is not a readable gzip stream',
  MALFORMED_JSON: 'the timeline file is not valid JSON',
  NOT_A_TIMELINE: 'not a Podscope timeline file',
  UNSUPPORTED_VERSION: 'the timeline file is from a newer Podscope',
  INVALID: 'the timeline file is invalid',
};

export function formatIssue(issue: FileIssue): string {
  const at =
    issue.line !== undefined
      ? `line ${issue.line}, column ${issue.column ?? 0} (byte ${issue.byte ?? 0})`
      : issue.path;
  return `${at}: ${issue.message}`;
}

function summarize(code: FileErrorCode, issues: readonly FileIssue[], more: number): string {
  const first = issues[0];
  const head = HEADLINE[code];
  if (!first) return head;
  const rest = issues.length - 1 + more;
  return `${head}: ${formatIssue(first)}${rest > 0 ? ` (and ${rest} more)` : ''}`;
}

/** A JSON path in the familiar form: `events[12].status["odd key"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part))
      out += out ? `.${part}` : part;
    else {
      const key = String(part);
      out += `[${JSON.stringify(key.length > 60 ? `${key.slice(0, 59)}…` : key)}]`;
    }
  }
  return out || '(root)';
}

/** Collects issues up to a limit and counts the rest. */
export class IssueList {
  readonly items: FileIssue[] = [];
  more = 0;
  constructor(private readonly max: number) {}
  add(path: readonly PropertyKey[] | string, message: string): void {
    if (this.items.length >= this.max) {
      this.more++;
      return;
    }
    this.items.push({ path: typeof path === 'string' ? path : formatPath(path), message });
  }
  get size(): number {
    return this.items.length + this.more;
  }
  throwIfAny(code: FileErrorCode): void {
    if (this.size > 0) throw new TimelineFileError(code, this.items, this.more);
  }
}
