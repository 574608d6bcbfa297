/**
 * The simulated busybox: runs a container's argv (or an ExecSync command) as a generator that
 * yields whenever the process would block — a foreground sleep, a process that never ends
 * (dd from /dev/zero, yes, the catalogue's `serve`), or the `wait` builtin. The driver
 * (process.ts) resumes it when virtual time or a signal says so. No timers live here.
 *
 * Semantics kept from the real thing because contract tests compare the two:
 * - A shell traps a signal only with `trap`; a trap runs after the current foreground command
 *   finishes (POSIX), but interrupts `wait` at once.
 * - `exec CMD` replaces the shell; so does the last command of `sh -c` when no trap is set
 *   (busybox ash skips the fork there) — visible because the exec'd program, not the shell,
 *   then receives the stop signal.
 * - A child killed by the OOM killer gives its shell status 137 and the shell goes on.
 * - Unknown commands: "sh: NAME: not found", status 127. Syntax errors: status 2.
 */
import { resolveExecutable } from './applets';
import type { Rootfs } from './applets';
import { expandWord, parseScript, ShellSyntaxError } from './shell';
import type { Node, Redirect, Word } from './shell';
import { evalTest, parseDd, parseServe, sleepArgsMs, type TermBehaviour } from './applet-args';
import { parseSleepSeconds } from './units';

export type { TermBehaviour } from './applet-args';

/** A blocking point. `pid1` marks ops of the container's main process itself (after exec). */
export type Op =
  /** `cpu`: a busy shell loop is modelled as a sleep that keeps a core busy. */
  | { k: 'sleep'; ms: number; pid1: boolean; cpu?: number; name?: string }
  | {
      k: 'forever';
      /** The program's name (pgrep). */
      name?: string;
      /** Bytes this process holds; checked against the memory limit when it starts. */
      memory: number;
      /** Cores it keeps busy. */
      cpu: number;
      pid1: boolean;
      /** How it reacts to a catchable signal when it is PID 1 (default: ignores it, as PID 1). */
      onTerm?: TermBehaviour;
      /** Ends by itself after this long (serve --exit-after), with `exitCode`. */
      endsAfterMs?: number;
      exitCode?: number;
    }
  | { k: 'wait' };

/** How the driver resumes the generator after an op. */
export interface Resume {
  /** Exit status of the op's process (137 when the OOM killer took it). */
  status: number;
  /** `wait` was cut short by a trapped signal. */
  interrupted?: boolean;
}

/** Thrown inside the generator to end the process (exit builtin, end of exec'd program). */
export class ShellExit extends Error {
  override name = 'ShellExit';
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

export interface BackgroundJob {
  /** Virtual time it ends, Infinity for never. */
  endsAt: number;
  memory: number;
  cpu: number;
}

/** The driver side the interpreter talks to. */
export interface Host {
  readonly rootfs: Rootfs;
  now(): number;
  env(name: string): string | undefined;
  setEnv(name: string, value: string): void;
  readonly files: Set<string>;
  readonly traps: Map<string, string>;
  /** Signals received with a trap set, not yet acted on. */
  readonly pendingTraps: string[];
  startJob(job: BackgroundJob): void;
  /** True when at least one background job is alive. */
  hasJobs(): boolean;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Names of the container's live processes, PID order (pgrep); empty when unknown. */
  processNames?(): string[];
}

const SLEEP_MS_CHILD = 0;
const DD_CPU = 1;

export const SIGNALS: Readonly<Record<string, number>> = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  KILL: 9,
  USR1: 10,
  USR2: 12,
  TERM: 15,
};

function signalName(arg: string): string | undefined {
  const up = arg.toUpperCase().replace(/^SIG/, '');
  if (up in SIGNALS) return up;
  const n = Number(arg);
  return Object.entries(SIGNALS).find(([, v]) => v === n)?.[0];
}

type Gen = Generator<Op, number, Resume>;

/** Commands a shell may run without blocking before it is treated as a busy loop (see below). */
const BUSY_BUDGET = 1000;

export class Interpreter {
  private status = 0;
  private budget = BUSY_BUDGET;

  constructor(private readonly host: Host) {}

  private lookup = (name: string): string | undefined =>
    name === '?' ? String(this.status) : name === '$' ? '1' : this.host.env(name);

  private expand(words: Word[]): string[] {
    return words.map((w) => expandWord(w, this.lookup));
  }

  /**
   * The container's process: argv as the runtime resolved it. Returns the exit status; throws
   * ShellExit from deep inside (exit builtin), which the driver treats the same.
   */
  *main(argv: string[]): Gen {
    return yield* this.program(argv, true);
  }

  /** ExecSync: a command run beside the main process (never PID 1). */
  *exec(argv: string[]): Gen {
    return yield* this.program(argv, false);
  }

  /** Runs an executable (already known to exist) with its arguments. */
  private *program(argv: string[], pid1: boolean): Gen {
    const [name = '', ...args] = argv;
    const applet = resolveExecutable(this.host.rootfs, name);
    if (applet === 'sh' || applet === 'ash' || (applet === 'busybox' && args[0] === 'sh')) {
      return yield* this.shell(applet === 'busybox' ? args.slice(1) : args);
    }
    if (applet === 'busybox') return yield* this.program(args, pid1);
    return yield* this.applet(applet ?? name, args, pid1);
  }

  private *shell(args: string[]): Gen {
    if (args[0] !== '-c') {
      // `sh` with no script reads stdin, which is /dev/null for a container: exits at once.
      return 0;
    }
    const script = args[1] ?? '';
    let node: Node;
    try {
      node = parseScript(script);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      this.host.stderr(`sh: ${err.message}\n`);
      return 2;
    }
    yield* this.run(node, true);
    yield* this.runTraps();
    return this.status;
  }

  /** Runs pending traps at a command boundary. */
  private *runTraps(): Generator<Op, void, Resume> {
    while (this.host.pendingTraps.length > 0) {
      const sig = this.host.pendingTraps.shift() ?? '';
      const action = this.host.traps.get(sig);
      if (action === undefined || action === '') continue;
      const saved = this.status;
      let node: Node;
      try {
        node = parseScript(action);
      } catch {
        continue;
      }
      yield* this.run(node, false);
      this.status = saved;
    }
  }

  /** `tail`: this node is the script's last command, a candidate for busybox's no-fork exec. */
  private *run(node: Node, tail: boolean): Generator<Op, void, Resume> {
    switch (node.t) {
      case 'simple':
        yield* this.runTraps();
        if (!this.redirect(node.redirects)) return;
        yield* this.simple(node.words, tail && this.host.traps.size === 0);
        yield* this.runTraps();
        return;
      case 'seq': {
        const last = node.items.length - 1;
        for (const [i, item] of node.items.entries()) {
          if (item.background) this.background(item.node);
          else yield* this.run(item.node, tail && i === last);
        }
        return;
      }
      case 'and':
        yield* this.run(node.left, false);
        if (this.status === 0) yield* this.run(node.right, tail);
        return;
      case 'or':
        yield* this.run(node.left, false);
        if (this.status !== 0) yield* this.run(node.right, tail);
        return;
      case 'not':
        yield* this.run(node.body, false);
        this.status = this.status === 0 ? 1 : 0;
        return;
      case 'pipe': {
        // Pipelines are not wired: the last command decides status and duration.
        const last = node.commands[node.commands.length - 1];
        if (last) yield* this.run(last, tail);
        return;
      }
      case 'group':
        yield* this.run(node.body, tail);
        return;
      case 'if':
        yield* this.run(node.cond, false);
        if (this.status === 0) yield* this.run(node.then, tail);
        else if (node.else) yield* this.run(node.else, tail);
        else this.status = 0;
        return;
      case 'loop': {
        let bodyStatus = 0;
        for (;;) {
          yield* this.run(node.cond, false);
          const proceed = node.until ? this.status !== 0 : this.status === 0;
          if (!proceed) break;
          yield* this.run(node.body, false);
          bodyStatus = this.status;
        }
        this.status = bodyStatus;
        return;
      }
    }
  }

  /** Applies redirections: writing creates the file; reading a missing one fails (status 1). */
  private redirect(redirects: Redirect[]): boolean {
    for (const r of redirects) {
      const target = expandWord(r.target, this.lookup);
      if (target.startsWith('/dev/')) continue;
      if (r.op === '<') {
        if (!this.host.files.has(target)) {
          this.host.stderr(`sh: can't open '${target}': No such file or directory\n`);
          this.status = 1;
          return false;
        }
      } else this.host.files.add(target);
    }
    return true;
  }

  /** `CMD &`: only simple commands are tracked (their duration and memory count). */
  private background(node: Node): void {
    this.status = 0;
    if (node.t !== 'simple') return;
    const [name = '', ...args] = this.expand(node.words);
    const applet = resolveExecutable(this.host.rootfs, name);
    const now = this.host.now();
    if (applet === 'sleep') {
      const ms = sleepArgsMs(args);
      if (ms !== undefined) this.host.startJob({ endsAt: now + ms, memory: 64 * 1024, cpu: 0 });
    } else if (applet === 'dd') {
      const dd = parseDd(args);
      if (dd.forever) this.host.startJob({ endsAt: Infinity, memory: dd.bs, cpu: DD_CPU });
    } else if (applet === 'yes') {
      this.host.startJob({ endsAt: Infinity, memory: 64 * 1024, cpu: 1 });
    } else if (applet === 'serve') {
      const opts = parseServe(args, (n) => this.host.env(n));
      this.host.startJob({
        endsAt: opts.exitAfterMs === undefined ? Infinity : now + opts.exitAfterMs,
        memory: opts.memory,
        cpu: opts.cpu,
      });
    }
  }

  private *simple(words: Word[], asExec: boolean): Generator<Op, void, Resume> {
    // A loop of commands that never block (`while true; do :; done`) would spin forever in
    // zero virtual time; instead it runs BUSY_BUDGET commands per virtual second on one core.
    if (--this.budget <= 0) {
      this.budget = BUSY_BUDGET;
      yield { k: 'sleep', ms: 1000, pid1: false, cpu: 1 };
    }
    const argv = this.expand(words);
    // Leading NAME=value words assign shell variables (and, before a command, its environment).
    while (argv.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0] ?? '')) {
      const assignment = argv.shift() ?? '';
      const eq = assignment.indexOf('=');
      this.host.setEnv(assignment.slice(0, eq), assignment.slice(eq + 1));
    }
    const [name = '', ...args] = argv;
    if (name === '') {
      this.status = 0;
      return;
    }
    switch (name) {
      case 'exit': {
        const code = args[0] === undefined ? this.status : Number(args[0]);
        throw new ShellExit(Number.isInteger(code) ? ((code % 256) + 256) % 256 : 2);
      }
      case 'trap':
        this.status = this.trap(args);
        return;
      case 'exec': {
        if (args.length === 0) {
          this.status = 0;
          return;
        }
        const target = args[0] ?? '';
        if (resolveExecutable(this.host.rootfs, target) === undefined) {
          this.host.stderr(`sh: exec: ${target}: not found\n`);
          throw new ShellExit(127);
        }
        // The exec'd program starts with default signal dispositions.
        this.host.traps.clear();
        throw new ShellExit(yield* this.program(args, true));
      }
      case 'wait':
        this.status = yield* this.waitJobs();
        return;
      case ':':
        this.status = 0;
        return;
      case 'export':
        for (const a of args) {
          const eq = a.indexOf('=');
          if (eq > 0) this.host.setEnv(a.slice(0, eq), a.slice(eq + 1));
        }
        this.status = 0;
        return;
      case 'cd':
        this.status = 0;
        return;
    }
    if (resolveExecutable(this.host.rootfs, name) === undefined) {
      this.host.stderr(`sh: ${name}: not found\n`);
      this.status = 127;
      return;
    }
    if (asExec) {
      throw new ShellExit(yield* this.program(argv, true));
    }
    this.status = yield* this.program(argv, false);
  }

  private trap(args: string[]): number {
    if (args.length < 2) return 0;
    const [action = '', ...sigs] = args;
    for (const s of sigs) {
      const sig = signalName(s);
      if (!sig) {
        this.host.stderr(`sh: trap: ${s}: invalid signal specification\n`);
        return 1;
      }
      if (sig === 'KILL') continue;
      if (action === '-') this.host.traps.delete(sig);
      else this.host.traps.set(sig, action);
    }
    return 0;
  }

  private *waitJobs(): Generator<Op, number, Resume> {
    if (!this.host.hasJobs()) return 0;
    const r = yield { k: 'wait' };
    return r.interrupted ? r.status : 0;
  }

  /** An executable that exists: busybox applets and the catalogue's `serve`. */
  /** pgrep PATTERN (extended regex on the process name; -x exact) / pidof NAME…: one pid a line. */
  private pgrep(applet: string, args: string[]): number {
    const names = this.host.processNames?.() ?? [];
    const operands = args.filter((a) => !a.startsWith('-'));
    const exact = applet === 'pidof' || args.includes('-x');
    let match: (name: string) => boolean;
    if (applet === 'pidof') match = (n) => operands.includes(n);
    else {
      const pattern = operands[0];
      if (pattern === undefined) {
        this.host.stderr('pgrep: no process selection criteria\n');
        return 2;
      }
      let re: RegExp;
      try {
        re = new RegExp(exact ? `^(?:${pattern})$` : pattern);
      } catch {
        this.host.stderr(`pgrep: bad regex '${pattern}'\n`);
        return 2;
      }
      match = (n) => re.test(n);
    }
    const pids = names.flatMap((n, i) => (match(n) ? [String(i + 1)] : []));
    if (pids.length === 0) return 1;
    this.host.stdout(applet === 'pidof' ? `${pids.join(' ')}\n` : `${pids.join('\n')}\n`);
    return 0;
  }

  private *applet(applet: string, args: string[], pid1: boolean): Gen {
    switch (applet) {
      case 'sleep': {
        if (args.length === 0) {
          this.host.stderr('BusyBox: sleep: missing operand\n');
          return 1;
        }
        const ms = sleepArgsMs(args);
        if (ms === undefined) {
          this.host.stderr(
            `sleep: invalid number '${args.find((a) => parseSleepSeconds(a) === undefined) ?? ''}'\n`,
          );
          return 1;
        }
        return (yield { k: 'sleep', ms: Math.max(ms, SLEEP_MS_CHILD), pid1, name: applet }).status;
      }
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'dd': {
        const dd = parseDd(args);
        if (dd.error) {
          this.host.stderr(`dd: ${dd.error}\n`);
          return 1;
        }
        if (!dd.forever) {
          // A bounded copy still maps bs bytes: it can be OOM-killed, otherwise it ends at once.
          return (yield {
            k: 'forever',
            name: applet,
            memory: dd.bs,
            cpu: DD_CPU,
            pid1,
            endsAfterMs: 0,
            exitCode: 0,
          }).status;
        }
        return (yield { k: 'forever', name: applet, memory: dd.bs, cpu: DD_CPU, pid1 }).status;
      }
      case 'yes':
        return (yield { k: 'forever', name: applet, memory: 64 * 1024, cpu: 1, pid1 }).status;
      case 'httpd':
      case 'nc':
        if (args.includes('-f') || args.includes('-l') || args.includes('-lk')) {
          return (yield { k: 'forever', name: applet, memory: 512 * 1024, cpu: 0, pid1 }).status;
        }
        return 0;
      case 'serve': {
        const opts = parseServe(args, (n) => this.host.env(n));
        const op: Op = {
          k: 'forever',
          name: applet,
          memory: opts.memory,
          cpu: opts.cpu,
          pid1,
          onTerm: opts.onTerm,
        };
        if (opts.exitAfterMs !== undefined) {
          op.endsAfterMs = opts.exitAfterMs;
          op.exitCode = opts.exitCode;
        }
        return (yield op).status;
      }
      case 'top':
        // busybox top redraws until a signal: its handler restores the terminal and re-raises,
        // so even as PID 1 it ends by SIGTERM (143).
        return (yield {
          k: 'forever',
          name: applet,
          memory: 256 * 1024,
          cpu: 0.001,
          pid1,
          onTerm: { kind: 'exit', code: 143, delayMs: 0 },
        }).status;
      case 'pgrep':
      case 'pidof':
        return this.pgrep(applet, args);
      case 'echo': {
        const noNewline = args[0] === '-n';
        const text = (noNewline ? args.slice(1) : args).join(' ');
        this.host.stdout(noNewline ? text : `${text}\n`);
        return 0;
      }
      case 'printf':
        this.host.stdout((args[0] ?? '').replace(/\\n/g, '\n'));
        return 0;
      case 'hostname':
        this.host.stdout(`${this.host.env('HOSTNAME') ?? ''}\n`);
        return 0;
      case 'touch':
        for (const f of args.filter((a) => !a.startsWith('-'))) this.host.files.add(f);
        return 0;
      case 'rm':
        for (const f of args.filter((a) => !a.startsWith('-'))) this.host.files.delete(f);
        return 0;
      case 'cat': {
        const files = args.filter((a) => !a.startsWith('-'));
        for (const f of files) {
          if (!this.host.files.has(f)) {
            this.host.stderr(`cat: can't open '${f}': No such file or directory\n`);
            return 1;
          }
        }
        return 0;
      }
      case 'test':
        return evalTest(args, this.host.files);
      case '[':
        if (args[args.length - 1] !== ']') {
          this.host.stderr('[: missing ]\n');
          return 2;
        }
        return evalTest(args.slice(0, -1), this.host.files);
      default:
        // Other applets finish at once with success (see CATALOGUE.md).
        return 0;
    }
  }
}
