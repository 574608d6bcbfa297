/**
 * The arguments of the simulated programs that do more than exit 0 (interpreter.ts runs them):
 * busybox `sleep` (several durations add up), `dd` (bs= and count=), `test` / `[` over the
 * container's files, and the catalogue's `serve` (its flags and SERVE_* defaults, CATALOGUE.md).
 * Pure parsing; what the program then does is the interpreter's.
 */
import { parseDurationMs, parseSize, parseSleepSeconds } from './units';

/** What a long-running program does when it receives its stop signal. */
export type TermBehaviour = { kind: 'exit'; code: number; delayMs: number } | { kind: 'ignore' };

/** busybox sleep: several arguments add up; any unreadable one is an error. */
export function sleepArgsMs(args: string[]): number | undefined {
  let total = 0;
  for (const a of args) {
    const ms = parseSleepSeconds(a);
    if (ms === undefined) return undefined;
    total += ms;
  }
  return total;
}

export interface DdArgs {
  bs: number;
  forever: boolean;
  error?: string;
}

/** dd: only bs= and count= matter here (if=/dev/zero of=/dev/null runs until killed). */
export function parseDd(args: string[]): DdArgs {
  let bs = 512;
  let forever = true;
  for (const a of args) {
    const [key, value = ''] = a.split('=', 2);
    if (key === 'bs') {
      const n = parseSize(value);
      if (n === undefined) return { bs, forever, error: `invalid number '${value}'` };
      bs = n;
    } else if (key === 'count') {
      forever = false;
    }
  }
  return { bs, forever };
}

export interface ServeOptions {
  memory: number;
  cpu: number;
  onTerm: TermBehaviour;
  exitAfterMs?: number;
  exitCode: number;
}

/** Environment variables `serve` reads as defaults for its flags. */
const SERVE_ENV: Readonly<Record<string, string>> = {
  memory: 'SERVE_MEMORY',
  cpu: 'SERVE_CPU',
  'on-term': 'SERVE_ON_TERM',
  'term-delay': 'SERVE_TERM_DELAY',
  'exit-after': 'SERVE_EXIT_AFTER',
  'exit-code': 'SERVE_EXIT_CODE',
};

/** The catalogue's `serve` program (flags in CATALOGUE.md); SERVE_* variables give defaults. */
export function parseServe(
  args: string[],
  env: (name: string) => string | undefined = () => undefined,
): ServeOptions {
  const fromEnv = Object.entries(SERVE_ENV)
    .map(([flag, name]) => [flag, env(name)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined && e[1] !== '')
    .map(([flag, value]) => `--${flag}=${value}`);
  args = [...fromEnv, ...args];
  const opts: ServeOptions = {
    memory: 24 * 1024 * 1024,
    cpu: 0.02,
    onTerm: { kind: 'exit', code: 0, delayMs: 0 },
    exitCode: 0,
  };
  let termDelay = 0;
  let termCode = 0;
  let ignore = false;
  for (const a of args) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) continue;
    const [, key = '', value = ''] = m;
    switch (key) {
      case 'memory': {
        const n = parseSize(value);
        if (n !== undefined) opts.memory = n;
        break;
      }
      case 'cpu': {
        const n = Number(value);
        if (Number.isFinite(n) && n >= 0) opts.cpu = n;
        break;
      }
      case 'on-term':
        if (value === 'ignore') ignore = true;
        else {
          const code = /^exit:(\d+)$/.exec(value);
          if (code) termCode = Number(code[1]);
        }
        break;
      case 'term-delay': {
        const ms = parseDurationMs(value);
        if (ms !== undefined && Number.isFinite(ms)) termDelay = ms;
        break;
      }
      case 'exit-after': {
        const ms = parseDurationMs(value);
        if (ms !== undefined) opts.exitAfterMs = ms;
        break;
      }
      case 'exit-code': {
        const n = Number(value);
        if (Number.isInteger(n)) opts.exitCode = ((n % 256) + 256) % 256;
        break;
      }
    }
  }
  opts.onTerm = ignore ? { kind: 'ignore' } : { kind: 'exit', code: termCode, delayMs: termDelay };
  return opts;
}

/** test / [ ]: file tests against the container's files, string and integer comparisons. */
export function evalTest(args: string[], files: ReadonlySet<string>): number {
  if (args[0] === '!') return evalTest(args.slice(1), files) === 0 ? 1 : 0;
  if (args.length === 0) return 1;
  if (args.length === 1) return (args[0] ?? '') !== '' ? 0 : 1;
  if (args.length === 2) {
    const [op, operand = ''] = args;
    if (op === '-f' || op === '-e' || op === '-s' || op === '-r') return files.has(operand) ? 0 : 1;
    if (op === '-d') return operand === '/' || operand === '/tmp' ? 0 : 1;
    if (op === '-z') return operand === '' ? 0 : 1;
    if (op === '-n') return operand !== '' ? 0 : 1;
    return 2;
  }
  const [a = '', op = '', b = ''] = args;
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '=':
    case '==':
      return a === b ? 0 : 1;
    case '!=':
      return a !== b ? 0 : 1;
    case '-eq':
      return x === y ? 0 : 1;
    case '-ne':
      return x !== y ? 0 : 1;
    case '-lt':
      return x < y ? 0 : 1;
    case '-le':
      return x <= y ? 0 : 1;
    case '-gt':
      return x > y ? 0 : 1;
    case '-ge':
      return x >= y ? 0 : 1;
    default:
      return 2;
  }
}
