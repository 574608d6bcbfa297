/**
 * A bounded pre-scan of JSON text, run before JSON.parse allocates anything: nesting depth,
 * string and key lengths, and the number of items in any array or object are checked as the
 * text is read, and the first excess is refused with its place in the document. Ten megabytes
 * of `[[[[…` then cost a few dozen characters of reading instead of millions of nested arrays.
 *
 * Only limits are checked here, with the same words and paths as the check on a parsed document
 * (bounds.ts); syntax is left to JSON.parse and the located syntax scan (text.ts), which run only
 * on text that passed. The scan is iterative and keeps one frame per open bracket (at most
 * maxDepth of them).
 */
import { TimelineFileError, formatPath } from './errors';
import type { FileLimits } from './limits';

export type ScanLimits = Pick<
  FileLimits,
  'maxDepth' | 'maxStringChars' | 'maxKeyChars' | 'maxArrayLength' | 'maxObjectKeys' | 'maxEvents'
>;

interface Frame {
  array: boolean;
  /** Items (array) or keys (object) seen so far. */
  count: number;
  max: number;
  isEvents: boolean;
  /** The current key (object) — the path of the value being read. */
  key: string;
}

function refuse(frames: readonly Frame[], message: string, upTo = frames.length): never {
  const path: (string | number)[] = [];
  for (const f of frames.slice(0, upTo)) path.push(f.array ? Math.max(0, f.count - 1) : f.key);
  throw new TimelineFileError('TOO_LARGE', [{ path: formatPath(path), message }]);
}

/** Throws TimelineFileError('TOO_LARGE') at the first place `text` goes beyond `limits`. */
export function scanJsonLimits(text: string, limits: ScanLimits): void {
  const n = text.length;
  const frames: Frame[] = [];
  let expectKey = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      i++;
      // Skip to the closing quote, stepping over escapes; syntax is JSON.parse's business.
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return; // unterminated: JSON.parse reports it, located
        let backslashes = 0;
        for (let k = q - 1; k >= i && text.charCodeAt(k) === 0x5c; k--) backslashes++;
        i = q + 1;
        if (backslashes % 2 === 0) break;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top) {
        const key = decoded(text, start, i, limits.maxKeyChars);
        top.key = key ?? text.slice(start + 1, Math.min(i - 1, start + 61));
        if (key === undefined) {
          const length = decodedLength(text, start, i);
          if (length > limits.maxKeyChars)
            refuse(
              frames,
              `a key of ${length} characters; the limit is ${limits.maxKeyChars}`,
              frames.length - 1,
            );
        }
        expectKey = false;
      } else if (i - start - 2 > limits.maxStringChars) {
        const length = decodedLength(text, start, i);
        if (length > limits.maxStringChars)
          refuse(frames, `string of ${length} characters; the limit is ${limits.maxStringChars}`);
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (frames.length >= limits.maxDepth)
        refuse(frames, `nested deeper than ${limits.maxDepth} levels`);
      const array = c === 0x5b;
      const parent = frames[frames.length - 1];
      const isEvents =
        array && frames.length === 1 && parent?.array === false && parent.key === 'events';
      frames.push({
        array,
        count: 0,
        max: array ? (isEvents ? limits.maxEvents : limits.maxArrayLength) : limits.maxObjectKeys,
        isEvents,
        key: '',
      });
      expectKey = !array;
      i++;
      // An empty container has no items; otherwise its first value or key is one.
      let j = i;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      const next = text.charCodeAt(j);
      if (next !== 0x5d && next !== 0x7d) (frames[frames.length - 1] as Frame).count = 1;
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      const top = frames[frames.length - 1];
      if (top && top.count > top.max) {
        const noun = top.array ? (top.isEvents ? 'events' : 'items') : 'keys';
        refuse(frames, `${top.count} ${noun}; the limit is ${top.max}`, frames.length - 1);
      }
      frames.pop();
      expectKey = false;
      i++;
      continue;
    }
    if (c === 0x2c /* , */) {
      const top = frames[frames.length - 1];
      if (top) {
        // Past the limit the count goes on (cheaply) so the refusal can say how many there are.
        top.count++;
        expectKey = !top.array;
      }
      i++;
      continue;
    }
    i++;
  }
}

/** The string's value when it has no escapes and is within `max`; else undefined. */
function decoded(text: string, start: number, end: number, max: number): string | undefined {
  if (end - start - 2 > max) return undefined;
  const raw = text.slice(start + 1, end - 1);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return raw; // malformed escapes: JSON.parse reports them later
  }
}

/** Length in UTF-16 units of the JSON string literal text[start, end). */
function decodedLength(text: string, start: number, end: number): number {
  const raw = text.slice(start + 1, end - 1);
  if (!raw.includes('\\')) return raw.length;
  try {
    return (JSON.parse(text.slice(start, end)) as string).length;
  } catch {
    return raw.length; // malformed escapes: JSON.parse reports them later
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
