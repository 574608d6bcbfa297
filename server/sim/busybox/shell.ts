/**
 * Parser for the small POSIX-shell subset the simulated busybox understands in `sh -c SCRIPT`:
 * sequences (`;`, newline), `&&`, `||`, `!`, background `&`, pipelines (`|`, see process.ts),
 * `{ …; }`, `( … )`, `if/elif/else/fi`, `while/until … do … done`, single and double quotes,
 * backslash escapes, `#` comments and parameter expansion `$NAME`, `${NAME}`, `${NAME:-word}`,
 * `$?`. Anything else is a syntax error, which the simulated shell reports like busybox
 * (exit status 2). CATALOGUE.md lists the language.
 */

export type Part = { lit: string } | { param: string; fallback?: Word };
export type Word = Part[];

/** `> FILE`, `>> FILE`, `< FILE`, `2> FILE`; `>&2`, `2>&1` duplicate and are dropped. */
export interface Redirect {
  op: '>' | '>>' | '<';
  target: Word;
}

export type Node =
  | { t: 'simple'; words: Word[]; redirects: Redirect[] }
  | { t: 'seq'; items: { node: Node; background: boolean }[] }
  | { t: 'and' | 'or'; left: Node; right: Node }
  | { t: 'not'; body: Node }
  | { t: 'pipe'; commands: Node[] }
  | { t: 'loop'; until: boolean; cond: Node; body: Node }
  | { t: 'if'; cond: Node; then: Node; else?: Node }
  | { t: 'group'; body: Node };

export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

type Token = { op: string } | { word: Word } | { redirect: '>' | '>>' | '<' | 'dup' };

const REDIRECT = /^(?:\d?>&\d|&>|\d?>>|\d?>|<)/;

const OPERATORS = ['&&', '||', ';;', ';', '&', '|', '(', ')', '\n'];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let word: Word | null = null;
  let lit = '';

  const flushLit = () => {
    if (lit !== '') {
      (word ??= []).push({ lit });
      lit = '';
    }
  };
  const endWord = () => {
    flushLit();
    if (word) tokens.push({ word });
    word = null;
  };
  const startWord = () => {
    word ??= [];
  };

  const readParam = (inQuotes: boolean): Part => {
    // at '$'
    i++;
    const c = src[i];
    if (c === '?' || c === '$' || c === '#' || (c !== undefined && /\d/.test(c))) {
      i++;
      return { param: c };
    }
    if (c === '{') {
      const close = findBraceEnd(src, i + 1);
      const inner = src.slice(i + 1, close);
      i = close + 1;
      const m = /^([A-Za-z_][A-Za-z0-9_]*|\?)(?::-(.*))?$/s.exec(inner);
      if (!m?.[1]) throw new ShellSyntaxError(`bad substitution: \${${inner}}`);
      const part: Part = { param: m[1] };
      if (m[2] !== undefined) part.fallback = parseFallback(m[2]);
      return part;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (!m) return { lit: '$' };
    i += m[0].length;
    void inQuotes;
    return { param: m[0] };
  };

  while (i < src.length) {
    const c = src[i] ?? '';
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
      continue;
    }
    if (c === '#' && word === null && lit === '') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (word === null && lit === '') {
      const r = REDIRECT.exec(src.slice(i));
      if (r) {
        const text = r[0];
        tokens.push({
          redirect:
            text.includes('&') && text !== '&>'
              ? 'dup'
              : text.endsWith('>>')
                ? '>>'
                : text.endsWith('<')
                  ? '<'
                  : '>',
        });
        i += text.length;
        continue;
      }
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      endWord();
      tokens.push({ op });
      i += op.length;
      continue;
    }
    if (c === "'") {
      startWord();
      const close = src.indexOf("'", i + 1);
      if (close < 0) throw new ShellSyntaxError('unterminated quoted string');
      lit += src.slice(i + 1, close);
      i = close + 1;
      continue;
    }
    if (c === '"') {
      startWord();
      i++;
      for (;;) {
        if (i >= src.length) throw new ShellSyntaxError('unterminated quoted string');
        const d = src[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < src.length && '$`"\\\n'.includes(src[i + 1] ?? '')) {
          lit += src[i + 1];
          i += 2;
        } else if (d === '$') {
          flushLit();
          (word ??= []).push(readParam(true));
        } else {
          lit += d;
          i++;
        }
      }
      continue;
    }
    if (c === '\\') {
      startWord();
      if (src[i + 1] === '\n') {
        i += 2;
        continue;
      }
      lit += src[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (c === '$') {
      startWord();
      flushLit();
      (word ??= []).push(readParam(false));
      continue;
    }
    if (c === '`') throw new ShellSyntaxError('command substitution is not supported');
    startWord();
    lit += c;
    i++;
  }
  endWord();
  return tokens;
}

function findBraceEnd(src: string, from: number): number {
  let depth = 1;
  for (let j = from; j < src.length; j++) {
    if (src[j] === '{') depth++;
    else if (src[j] === '}' && --depth === 0) return j;
  }
  throw new ShellSyntaxError('missing }');
}

function parseFallback(text: string): Word {
  const tokens = tokenize(`"${text.replace(/"/g, '\\"')}"`);
  const first = tokens[0];
  return first && 'word' in first ? first.word : [];
}

const RESERVED = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'do',
  'done',
  '{',
  '}',
  '!',
]);

function plain(word: Word): string | undefined {
  const only = word[0];
  return word.length === 1 && only && 'lit' in only ? only.lit : undefined;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parseProgram(): Node {
    const node = this.list([]);
    if (this.pos < this.tokens.length) {
      throw new ShellSyntaxError(`syntax error: unexpected "${this.describe(this.peek())}"`);
    }
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private describe(t: Token | undefined): string {
    if (!t) return 'end of file';
    if ('op' in t) return t.op === '\n' ? 'newline' : t.op;
    if ('redirect' in t) return t.redirect;
    return plain(t.word) ?? 'word';
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t !== undefined && 'op' in t && t.op === op;
  }

  private isKeyword(kw: string): boolean {
    const t = this.peek();
    return t !== undefined && 'word' in t && plain(t.word) === kw;
  }

  private expectKeyword(kw: string): void {
    this.skipNewlines();
    if (!this.isKeyword(kw)) {
      throw new ShellSyntaxError(
        `syntax error: unexpected "${this.describe(this.peek())}" (expecting "${kw}")`,
      );
    }
    this.pos++;
  }

  private skipNewlines(): void {
    while (this.isOp('\n')) this.pos++;
  }

  /** A list ending before one of `terminators` (keywords) or `)` or end of input. */
  private list(terminators: string[]): Node {
    const items: { node: Node; background: boolean }[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (!t || this.isOp(')') || terminators.some((k) => this.isKeyword(k))) break;
      const node = this.andOr();
      let background = false;
      if (this.isOp('&')) {
        background = true;
        this.pos++;
      } else if (this.isOp(';') || this.isOp('\n')) {
        this.pos++;
      } else if (this.peek() && !this.isOp(')') && !terminators.some((k) => this.isKeyword(k))) {
        throw new ShellSyntaxError(`syntax error: unexpected "${this.describe(this.peek())}"`);
      }
      items.push({ node, background });
    }
    const only = items[0];
    if (items.length === 1 && only && !only.background) return only.node;
    return { t: 'seq', items };
  }

  private andOr(): Node {
    let left = this.pipeline();
    for (;;) {
      if (this.isOp('&&') || this.isOp('||')) {
        const t = this.isOp('&&') ? 'and' : 'or';
        this.pos++;
        this.skipNewlines();
        left = { t, left, right: this.pipeline() };
      } else return left;
    }
  }

  private pipeline(): Node {
    if (this.isKeyword('!')) {
      this.pos++;
      return { t: 'not', body: this.pipeline() };
    }
    const commands = [this.command()];
    while (this.isOp('|')) {
      this.pos++;
      this.skipNewlines();
      commands.push(this.command());
    }
    const first = commands[0];
    return commands.length === 1 && first ? first : { t: 'pipe', commands };
  }

  private command(): Node {
    if (this.isKeyword('while') || this.isKeyword('until')) {
      const until = this.isKeyword('until');
      this.pos++;
      const cond = this.list(['do']);
      this.expectKeyword('do');
      const body = this.list(['done']);
      this.expectKeyword('done');
      return { t: 'loop', until, cond, body };
    }
    if (this.isKeyword('if')) {
      this.pos++;
      return this.ifRest();
    }
    if (this.isKeyword('{')) {
      this.pos++;
      const body = this.list(['}']);
      this.expectKeyword('}');
      return { t: 'group', body };
    }
    if (this.isOp('(')) {
      this.pos++;
      const body = this.list([]);
      if (!this.isOp(')')) throw new ShellSyntaxError('syntax error: missing )');
      this.pos++;
      return { t: 'group', body };
    }
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (;;) {
      const t = this.peek();
      if (!t || 'op' in t) break;
      if ('redirect' in t) {
        this.pos++;
        if (t.redirect === 'dup') continue;
        const target = this.peek();
        if (!target || !('word' in target)) {
          throw new ShellSyntaxError(`syntax error: unexpected "${this.describe(target)}"`);
        }
        this.pos++;
        redirects.push({ op: t.redirect, target: target.word });
        continue;
      }
      const text = plain(t.word);
      if (words.length === 0 && text !== undefined && RESERVED.has(text)) break;
      words.push(t.word);
      this.pos++;
    }
    if (words.length === 0 && redirects.length === 0) {
      throw new ShellSyntaxError(`syntax error: unexpected "${this.describe(this.peek())}"`);
    }
    return { t: 'simple', words, redirects };
  }

  private ifRest(): Node {
    const cond = this.list(['then']);
    this.expectKeyword('then');
    const then = this.list(['elif', 'else', 'fi']);
    this.skipNewlines();
    if (this.isKeyword('elif')) {
      this.pos++;
      return { t: 'if', cond, then, else: this.ifRest() };
    }
    let otherwise: Node | undefined;
    if (this.isKeyword('else')) {
      this.pos++;
      otherwise = this.list(['fi']);
    }
    this.expectKeyword('fi');
    return otherwise ? { t: 'if', cond, then, else: otherwise } : { t: 'if', cond, then };
  }
}

export function parseScript(src: string): Node {
  return new Parser(tokenize(src)).parseProgram();
}

/** Expands a word with the given parameters ($? and environment). */
export function expandWord(word: Word, lookup: (name: string) => string | undefined): string {
  let out = '';
  for (const part of word) {
    if ('lit' in part) out += part.lit;
    else {
      const v = lookup(part.param);
      out +=
        v !== undefined && v !== '' ? v : part.fallback ? expandWord(part.fallback, lookup) : '';
    }
  }
  return out;
}
