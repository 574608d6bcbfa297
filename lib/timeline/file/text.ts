/**
 * From bytes to a located JSON document: UTF-8 decoding that names the first bad byte, and, when
 * JSON.parse refuses the text, a scan that finds where and why (JSON.parse's own messages differ
 * between engines and do not always give a position).
 */
import { TimelineFileError } from './errors';

/** Decodes UTF-8 strictly (no replacement characters); a leading BOM is dropped. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new TimelineFileError('NOT_UTF8', [
      {
        path: '(root)',
        message: `invalid UTF-8 at byte ${at}`,
        ...locate(bytes, at),
      },
    ]);
  }
}

/** Line and column of a byte offset (for the NOT_UTF8 message), counting newlines before it. */
function locate(bytes: Uint8Array, at: number): { line: number; column: number; byte: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1, byte: at };
}

/** Offset of the first byte that breaks UTF-8 (bytes.length when all is well). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, surrogates and code points above U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return i;
}

export interface JsonSyntaxProblem {
  /** UTF-16 index into the text. */
  index: number;
  message: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describe(text: string, i: number): string {
  if (i >= text.length) return 'the end of the file';
  const c = text.codePointAt(i) ?? 0;
  if (c < 0x20 || c === 0x7f)
    return `control character U+${c.toString(16).padStart(4, '0').toUpperCase()}`;
  return `'${String.fromCodePoint(c)}'`;
}

type Expect = 'value' | 'valueOrEnd' | 'key' | 'keyOrEnd' | 'colon' | 'commaOrEnd' | 'done';

/**
 * The first place where `text` stops being JSON (RFC 8259, as JSON.parse reads it), or undefined
 * when it is JSON. Iterative, so any nesting depth is fine.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const stack: ('{' | '[')[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const n = text.length;
  const fail = (index: number, message: string): JsonSyntaxProblem => ({ index, message });
  const afterValue = (): Expect => (stack.length > 0 ? 'commaOrEnd' : 'done');
  const scanString = (): JsonSyntaxProblem | undefined => {
    const start = i;
    i++;
    for (;;) {
      if (i >= n) return fail(start, "a string is never closed (missing '\"')");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return fail(i, 'a \\u escape needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail(i, `invalid escape ${e === undefined ? '\\' : `\\${e}`} in a string`);
        continue;
      }
      if (c < 0x20) return fail(i, `${describe(text, i)} inside a string (it must be escaped)`);
      i++;
    }
  };
  for (;;) {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
    if (i >= n) {
      if (expect === 'done') return undefined;
      const open = stack.length;
      return fail(
        n,
        `unexpected end of the file${open > 0 ? ` (${open} unclosed ${open === 1 ? 'bracket' : 'brackets'})` : ''}`,
      );
    }
    const c = text[i];
    switch (expect) {
      case 'done':
        return fail(i, `unexpected ${describe(text, i)} after the end of the JSON document`);
      case 'keyOrEnd':
      case 'key':
        if (expect === 'keyOrEnd' && c === '}') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (c !== '"')
          return fail(i, `expected a property name in double quotes, found ${describe(text, i)}`);
        {
          const bad = scanString();
          if (bad) return bad;
        }
        expect = 'colon';
        break;
      case 'colon':
        if (c !== ':')
          return fail(i, `expected ':' after a property name, found ${describe(text, i)}`);
        i++;
        expect = 'value';
        break;
      case 'commaOrEnd': {
        const top = stack[stack.length - 1];
        const close = top === '{' ? '}' : ']';
        if (c === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
        } else if (c === close) {
          stack.pop();
          i++;
          expect = afterValue();
        } else return fail(i, `expected ',' or '${close}', found ${describe(text, i)}`);
        break;
      }
      case 'valueOrEnd':
      case 'value':
        if (expect === 'valueOrEnd' && c === ']') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          expect = c === '{' ? 'keyOrEnd' : 'valueOrEnd';
        } else if (c === '"') {
          const bad = scanString();
          if (bad) return bad;
          expect = afterValue();
        } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
          NUMBER.lastIndex = i;
          const m = NUMBER.exec(text);
          if (!m) return fail(i, 'invalid number');
          i += m[0].length;
          expect = afterValue();
        } else {
          const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
          if (!word) return fail(i, `unexpected ${describe(text, i)} where a value was expected`);
          i += word.length;
          expect = afterValue();
        }
        break;
    }
  }
}

export interface TextLocation {
  line: number;
  column: number;
  byte: number;
}

/** 1-based line and column (in characters) and 0-based UTF-8 byte offset of a text index. */
export function locateIndex(text: string, index: number): TextLocation {
  const before = text.slice(0, index);
  const lastNewline = before.lastIndexOf('\n');
  let line = 1;
  for (let k = before.indexOf('\n'); k >= 0; k = before.indexOf('\n', k + 1)) line++;
  return {
    line,
    column: index - lastNewline,
    byte: new TextEncoder().encode(before).length,
  };
}

/** JSON.parse with a located error. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const problem = findJsonSyntaxError(text);
    if (problem) {
      throw new TimelineFileError('MALFORMED_JSON', [
        { path: '(root)', message: problem.message, ...locateIndex(text, problem.index) },
      ]);
    }
    // JSON.parse refused something the scan accepts (it should not happen): keep its words.
    throw new TimelineFileError('MALFORMED_JSON', [
      { path: '(root)', message: err instanceof Error ? err.message : String(err) },
    ]);
  }
}
