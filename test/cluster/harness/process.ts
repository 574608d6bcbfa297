/**
 * A server process owned by a test: started with its output kept (the last lines go into any
 * error), waited for until it says it is ready, stopped by PID with a signal and a deadline, and
 * killed with SIGKILL by an exit hook if the test process ends without stopping it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { rmSync } from 'node:fs';

const live = new Set<ChildProcess>();
const dirs = new Set<string>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of live) {
      try {
        if (child.pid) process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** Removes `dir` when the test process exits, unless it was removed before. */
export function removeOnExit(dir: string): void {
  hookExit();
  dirs.add(dir);
}

export function forgetDir(dir: string): void {
  dirs.delete(dir);
}

export interface Running {
  child: ChildProcess;
  pid: number;
  /** The last lines the process wrote (stdout and stderr together). */
  output(): string;
  /** Resolves with the exit code or signal once the process has exited. */
  exited: Promise<string>;
}

export interface StartSpec {
  name: string;
  command: string;
  args: string[];
  options?: SpawnOptions;
  /** Resolves true once the output shows the process ready. */
  ready: (output: string) => boolean | Promise<boolean>;
  timeoutMs?: number;
}

/** Starts a process and waits until `ready` says so; a process that exits first is an error. */
export async function startProcess(spec: StartSpec): Promise<Running> {
  hookExit();
  const child = spawn(spec.command, spec.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...spec.options,
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(signal ?? `exit code ${code}`);
    });
    child.once('error', (err) => {
      live.delete(child);
      resolve(`spawn error: ${err.message}`);
    });
  });
  if (child.pid) live.add(child);
  let gone: string | undefined;
  void exited.then((why) => (gone = why));
  const deadline = Date.now() + (spec.timeoutMs ?? 30_000);
  for (;;) {
    if (gone !== undefined)
      throw new Error(`${spec.name} exited before it was ready (${gone}):\n${tail}`);
    if (await spec.ready(tail)) break;
    if (Date.now() > deadline) {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
      await exited;
      throw new Error(`${spec.name} not ready after ${spec.timeoutMs ?? 30_000} ms:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, pid: child.pid as number, output: () => tail, exited };
}

/**
 * Sends `signal` to the process and waits for it to exit; SIGKILL after `graceMs`. Idempotent:
 * a process that has already exited is left alone.
 */
export async function stopProcess(
  running: Running | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) {
    await running?.exited;
    return;
  }
  try {
    process.kill(running.pid, signal);
  } catch {
    // exited in between
  }
  const timer = setTimeout(() => {
    try {
      process.kill(running.pid, 'SIGKILL');
    } catch {
      // exited in between
    }
  }, graceMs);
  await running.exited;
  clearTimeout(timer);
}
