/**
 * SimProcess: a container's main process on the virtual clock. Drives the interpreter's
 * generator: schedules at most one wake-up task on the shared clock for the current blocking
 * op (none while the process blocks forever), delivers signals with PID 1 semantics, enforces
 * the memory limit (the kernel's cgroup OOM killer takes the process that would go over), and
 * integrates CPU time. No timers of its own.
 *
 * Signals (REAL-CONTAINERD.md, "StopContainer" rows):
 * - KILL ends the process at once: exit 137.
 * - A catchable signal (TERM by default) reaches PID 1 only. PID 1 without a handler ignores
 *   it — a plain `sleep 3600` survives SIGTERM and dies by SIGKILL at the stop timeout. A shell
 *   with `trap ACTION TERM` runs ACTION (after its foreground command, or at once in `wait`).
 *   The catalogue's `serve` exits (or ignores it) as its flags say.
 */
import type { Rootfs } from './applets';
import type { SimClock, TimerHandle } from '../clock/clock';
import { Interpreter, ShellExit, SIGNALS } from './interpreter';
import type { BackgroundJob, Host, Op, Resume } from './interpreter';

/** The kernel's OOM kill lands a moment after the allocation starts (page faults take time). */
export const OOM_DELAY_MS = 10;
/** Resident memory of a busybox process (the shell, a sleep): small but not zero. */
export const BASE_MEMORY_BYTES = 512 * 1024;
const IDLE_CPU_CORES = 0.0005;

export interface ProcessHooks {
  /** The process ended with `code`. */
  onExit(code: number): void;
  /** The OOM killer took a process of this container (PID 1 or a child). */
  onOom(): void;
  /** Output of the process (the container's log). */
  onOutput?(stream: 'stdout' | 'stderr', text: string): void;
}

export interface ProcessConfig {
  clock: SimClock;
  rootfs: Rootfs;
  argv: string[];
  env: Record<string, string>;
  /** 0 = no limit. */
  memoryLimitBytes: number;
  /** The container's writable files (shared with ExecSync). */
  files: Set<string>;
  hooks: ProcessHooks;
  /** The container's live process names (pgrep); none when absent. */
  processNames?: () => string[];
}

interface Job extends BackgroundJob {
  timer?: TimerHandle;
}

export class SimProcess implements Host {
  readonly rootfs: Rootfs;
  readonly files: Set<string>;
  readonly traps = new Map<string, string>();
  readonly pendingTraps: string[] = [];
  exited = false;
  exitCode: number | undefined;

  private readonly clock: SimClock;
  private readonly env_: Map<string, string>;
  private readonly limit: number;
  private readonly hooks: ProcessHooks;
  private readonly argv: string[];
  private gen: Generator<Op, number, Resume> | undefined;
  private op: Op | undefined;
  private wake: TimerHandle | undefined;
  private jobs: Job[] = [];
  private cpuNanos = 0;
  private cpuSince: number;
  private readonly out: string[] = [];
  private readonly names: (() => string[]) | undefined;

  constructor(config: ProcessConfig) {
    this.names = config.processNames;
    this.clock = config.clock;
    this.rootfs = config.rootfs;
    this.files = config.files;
    this.env_ = new Map(Object.entries(config.env));
    this.limit = config.memoryLimitBytes;
    this.hooks = config.hooks;
    this.argv = config.argv;
    this.cpuSince = config.clock.now();
  }

  // --- Host (for the interpreter) -----------------------------------------------------------

  now(): number {
    return this.clock.now();
  }

  env(name: string): string | undefined {
    return this.env_.get(name);
  }

  setEnv(name: string, value: string): void {
    this.env_.set(name, value);
  }

  stdout(text: string): void {
    this.record(text);
    this.hooks.onOutput?.('stdout', text);
  }

  stderr(text: string): void {
    this.record(text);
    this.hooks.onOutput?.('stderr', text);
  }

  private record(text: string): void {
    this.out.push(text);
    if (this.out.length > 100) this.out.shift();
  }

  /** Names of the container's live processes (pgrep), from the runtime. */
  processNames(): string[] {
    return this.names?.() ?? this.ownNames();
  }

  /**
   * This process and its foreground child, by program name: the exec'd program when it
   * replaced the shell, else the shell and what it waits on.
   */
  ownNames(): string[] {
    if (this.exited) return [];
    const first = this.argv[0] ?? '';
    const main = first.slice(first.lastIndexOf('/') + 1);
    const op = this.op;
    if (!op || op.k === 'wait' || !op.name) return [main];
    if (op.pid1) return [op.name];
    return [main, op.name];
  }

  startJob(job: BackgroundJob): void {
    this.settleCpu();
    const j: Job = { ...job };
    if (this.limit > 0 && this.memoryBytes() + j.memory > this.limit) {
      // The new process is the biggest: the OOM killer takes it (the shell goes on).
      this.clock.after(OOM_DELAY_MS, () => {
        if (!this.exited) this.hooks.onOom();
      });
      return;
    }
    this.jobs.push(j);
    if (Number.isFinite(j.endsAt)) {
      j.timer = this.clock.at(j.endsAt, () => this.endJob(j));
    }
  }

  hasJobs(): boolean {
    return this.jobs.length > 0;
  }

  // --- Lifecycle ------------------------------------------------------------------------------

  /** Output lines so far (the last 100), for diagnostics. */
  output(): string {
    return this.out.join('');
  }

  start(): void {
    this.gen = new Interpreter(this).main(this.argv);
    this.step(undefined);
  }

  /** Delivers a signal by name (TERM, KILL, INT, …). */
  signal(sig: string): void {
    if (this.exited) return;
    if (sig === 'KILL') {
      this.finish(137);
      return;
    }
    const op = this.op;
    if (op && op.k !== 'wait' && op.pid1) {
      // The exec'd program is PID 1 and gets the signal itself.
      if (op.k === 'forever' && op.onTerm?.kind === 'exit') {
        const { code, delayMs } = op.onTerm;
        if (delayMs <= 0) this.finish(code);
        else this.clock.after(delayMs, () => this.finish(code));
      }
      return;
    }
    const action = this.traps.get(sig);
    if (action === undefined || action === '') return; // PID 1 with no handler: ignored.
    this.pendingTraps.push(sig);
    if (op?.k === 'wait') this.resume({ status: 128 + (SIGNALS[sig] ?? 15), interrupted: true });
    // Otherwise the trap runs once the foreground command ends (interpreter: runTraps).
  }

  /** Current resident memory, bytes. */
  memoryBytes(): number {
    if (this.exited) return 0;
    let total = BASE_MEMORY_BYTES;
    const op = this.op;
    if (op?.k === 'forever') total += op.memory;
    for (const j of this.jobs) total += j.memory;
    return total;
  }

  /** Cores currently busy. */
  cpuCores(): number {
    if (this.exited) return 0;
    const op = this.op;
    let cores = IDLE_CPU_CORES;
    if (op?.k === 'forever') cores += op.cpu;
    if (op?.k === 'sleep' && op.cpu) cores += op.cpu;
    for (const j of this.jobs) cores += j.cpu;
    return cores;
  }

  /** Cumulative CPU time, core-nanoseconds. */
  cpuCoreNanos(): number {
    const now = this.clock.now();
    return this.cpuNanos + Math.max(0, now - this.cpuSince) * 1e6 * this.cpuCores();
  }

  // --- Driving the generator ------------------------------------------------------------------

  private settleCpu(): void {
    const now = this.clock.now();
    this.cpuNanos = this.cpuCoreNanos();
    this.cpuSince = now;
  }

  private step(resume: Resume | undefined): void {
    const gen = this.gen;
    if (!gen || this.exited) return;
    let result: IteratorResult<Op, number>;
    try {
      result = resume === undefined ? gen.next() : gen.next(resume);
    } catch (err) {
      if (err instanceof ShellExit) {
        this.finish(err.code);
        return;
      }
      throw err;
    }
    if (result.done) this.finish(result.value);
    else this.block(result.value);
  }

  private resume(r: Resume): void {
    if (this.exited) return;
    this.settleCpu();
    if (this.wake) this.clock.cancel(this.wake);
    this.wake = undefined;
    this.op = undefined;
    this.step(r);
  }

  private block(op: Op): void {
    this.settleCpu();
    this.op = op;
    switch (op.k) {
      case 'sleep':
        if (Number.isFinite(op.ms))
          this.wake = this.clock.after(op.ms, () => this.resume({ status: 0 }));
        return;
      case 'forever':
        if (this.limit > 0 && this.memoryBytes() > this.limit) {
          this.wake = this.clock.after(OOM_DELAY_MS, () => this.oomKill(op));
          return;
        }
        if (op.endsAfterMs !== undefined) {
          const status = op.exitCode ?? 0;
          this.wake = this.clock.after(op.endsAfterMs, () => this.resume({ status }));
        }
        return;
      case 'wait': {
        if (this.jobs.length === 0) {
          this.wake = this.clock.after(0, () => this.resume({ status: 0 }));
          return;
        }
        const last = Math.max(...this.jobs.map((j) => j.endsAt));
        if (Number.isFinite(last))
          this.wake = this.clock.at(last, () => this.resume({ status: 0 }));
        return;
      }
    }
  }

  private oomKill(op: Op): void {
    if (this.exited || this.op !== op) return;
    this.hooks.onOom();
    if (op.k !== 'wait' && op.pid1) this.finish(137);
    else this.resume({ status: 137 });
  }

  private endJob(job: Job): void {
    this.settleCpu();
    this.jobs = this.jobs.filter((j) => j !== job);
  }

  private finish(code: number): void {
    if (this.exited) return;
    this.settleCpu();
    this.exited = true;
    this.exitCode = code;
    if (this.wake) this.clock.cancel(this.wake);
    this.wake = undefined;
    for (const j of this.jobs) if (j.timer) this.clock.cancel(j.timer);
    this.jobs = [];
    this.op = undefined;
    this.gen = undefined;
    this.hooks.onExit(code);
  }
}

/**
 * ExecSync: runs `argv` beside the main process (sharing its files and environment) and
 * resolves with the exit status and output once it ends in virtual time.
 */
export interface ExecConfig {
  clock: SimClock;
  rootfs: Rootfs;
  argv: string[];
  env: Record<string, string>;
  files: Set<string>;
  /** The container's live process names (pgrep). */
  processNames?: () => string[];
}

export interface ExecOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export class SimExec {
  private readonly proc: SimProcess;
  private readonly stdoutParts: string[] = [];
  private readonly stderrParts: string[] = [];
  readonly done: Promise<ExecOutcome>;

  constructor(config: ExecConfig) {
    let settle: (o: ExecOutcome) => void = () => undefined;
    this.done = new Promise((resolve) => {
      settle = resolve;
    });
    this.proc = new SimProcess({
      ...config,
      memoryLimitBytes: 0,
      hooks: {
        onExit: (code) =>
          settle({
            exitCode: code,
            stdout: this.stdoutParts.join(''),
            stderr: this.stderrParts.join(''),
          }),
        onOom: () => undefined,
      },
    });
    this.proc.stdout = (t) => {
      this.stdoutParts.push(t);
    };
    this.proc.stderr = (t) => {
      this.stderrParts.push(t);
    };
  }

  start(): void {
    this.proc.start();
  }

  kill(): void {
    this.proc.signal('KILL');
  }

  /** This exec's live processes by name (empty once it ended). */
  names(): string[] {
    return this.proc.ownNames();
  }
}
