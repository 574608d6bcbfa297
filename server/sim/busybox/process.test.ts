import { describe, expect, it } from 'vitest';
import { createClock } from '../clock/clock';
import type { SimClock } from '../clock/clock';
import { BASE_MEMORY_BYTES, OOM_DELAY_MS, SimExec, SimProcess } from './process';

const MiB = 1024 * 1024;
const BUSYBOX = { busybox: true, serve: false };
const WITH_SERVE = { busybox: true, serve: true };

interface Run {
  clock: SimClock;
  proc: SimProcess;
  exit: { code: number; at: number } | undefined;
  ooms: number;
}

function start(
  argv: string[],
  opts: {
    limit?: number;
    env?: Record<string, string>;
    rootfs?: typeof BUSYBOX;
    files?: Set<string>;
  } = {},
): Run {
  const clock = createClock({ mode: 'manual', start: 0 });
  const run: Run = { clock, proc: undefined as unknown as SimProcess, exit: undefined, ooms: 0 };
  run.proc = new SimProcess({
    clock,
    rootfs: opts.rootfs ?? BUSYBOX,
    argv,
    env: opts.env ?? {},
    memoryLimitBytes: opts.limit ?? 0,
    files: opts.files ?? new Set(),
    hooks: {
      onExit: (code) => {
        run.exit = { code, at: clock.now() };
      },
      onOom: () => {
        run.ooms++;
      },
    },
  });
  run.proc.start();
  return run;
}

const sh = (script: string) => ['sh', '-c', script];

describe('exit codes and timing', () => {
  it.each([
    [sh('sleep 2; exit 3'), 3, 2000],
    [sh('exit 0'), 0, 0],
    [['true'], 0, 0],
    [['false'], 1, 0],
    [sh('false'), 1, 0],
    [sh('sleep 1.5'), 0, 1500],
    [['sleep', '1', '2'], 0, 3000],
    [sh('exit 300'), 44, 0],
    [sh('nosuch-command'), 127, 0],
    [sh('if then'), 2, 0],
    [sh('false || exit 9'), 9, 0],
    [sh('true && exit 8'), 8, 0],
    [sh('! true'), 1, 0],
    [sh('i=0; sleep 1; (exit 5)'), 5, 1000],
    [sh('EXIT_CODE=4; exit "${EXIT_CODE:-1}"'), 4, 0],
    [sh('exit "${UNSET:-1}"'), 1, 0],
    [['/bin/busybox', 'sh', '-c', 'exit 6'], 6, 0],
    [['sleep'], 1, 0],
    [['sleep', 'soon'], 1, 0],
  ])('%j exits %i after %i ms', (argv, code, at) => {
    const run = start(argv);
    run.clock.advance(10_000);
    expect(run.exit).toEqual({ code, at });
  });

  it('reads the environment', () => {
    const run = start(sh('sleep "${EXIT_AFTER:-10}"; exit "${EXIT_CODE:-0}"'), {
      env: { EXIT_AFTER: '3', EXIT_CODE: '2' },
    });
    run.clock.advance(2999);
    expect(run.exit).toBeUndefined();
    run.clock.advance(1);
    expect(run.exit).toEqual({ code: 2, at: 3000 });
  });

  it('sleep infinity never ends and holds no timer', () => {
    const run = start(['sleep', 'infinity']);
    run.clock.advance(1e9);
    expect(run.exit).toBeUndefined();
    expect(run.clock.pending()).toBe(0);
  });
});

describe('signals: PID 1 semantics', () => {
  it('a plain sleep ignores SIGTERM and dies by SIGKILL with 137', () => {
    const run = start(['sleep', '3600']);
    run.proc.signal('TERM');
    run.clock.advance(1000);
    expect(run.exit).toBeUndefined();
    run.proc.signal('KILL');
    expect(run.exit).toEqual({ code: 137, at: 1000 });
  });

  it('a shell without a trap ignores SIGTERM', () => {
    const run = start(sh('sleep 5; exit 3'));
    run.proc.signal('TERM');
    run.clock.advance(5000);
    expect(run.exit?.code).toBe(3);
  });

  it('a trap runs after the foreground command finishes (POSIX, busybox ash)', () => {
    const run = start(sh("trap 'exit 143' TERM; sleep 3"));
    run.clock.advance(500);
    run.proc.signal('TERM');
    run.clock.advance(2499);
    expect(run.exit).toBeUndefined();
    run.clock.advance(1);
    expect(run.exit).toEqual({ code: 143, at: 3000 });
  });

  it('a trap interrupts wait at once', () => {
    const run = start(sh("trap 'exit 143' TERM; sleep 3600 & wait"));
    run.clock.advance(500);
    run.proc.signal('TERM');
    expect(run.exit).toEqual({ code: 143, at: 500 });
  });

  it('a trap in a loop of short sleeps fires within one sleep', () => {
    const run = start(sh("trap 'exit 143' TERM; while true; do sleep 1; done"));
    run.clock.advance(2300);
    run.proc.signal('TERM');
    run.clock.advance(699);
    expect(run.exit).toBeUndefined();
    run.clock.advance(1);
    expect(run.exit).toEqual({ code: 143, at: 3000 });
  });

  it("trap '' ignores and trap - resets", () => {
    const ignored = start(sh("trap '' TERM; sleep 10 & wait"));
    ignored.proc.signal('TERM');
    ignored.clock.advance(10_000);
    expect(ignored.exit?.code).toBe(0);
    const reset = start(sh("trap 'exit 1' TERM; trap - TERM; sleep 10 & wait"));
    reset.proc.signal('TERM');
    reset.clock.advance(5000);
    expect(reset.exit).toBeUndefined();
  });

  it('a trap that does not exit lets the script go on', () => {
    const run = start(sh("trap 'touch /tmp/got-term' TERM; sleep 5 & wait; sleep 1; exit 4"));
    run.proc.signal('TERM');
    expect(run.exit).toBeUndefined();
    run.clock.advance(1000);
    expect(run.exit?.code).toBe(4);
  });

  it('exec replaces the shell: traps are gone and the program is PID 1', () => {
    const run = start(sh("trap 'exit 143' TERM; exec sleep 100"));
    run.proc.signal('TERM');
    run.clock.advance(100_000);
    expect(run.exit).toEqual({ code: 0, at: 100_000 });
  });

  it('serve as PID 1 exits on SIGTERM after its delay; as a child it never sees the signal', () => {
    const pid1 = start(['serve', '--term-delay=2s', '--on-term=exit:143'], { rootfs: WITH_SERVE });
    pid1.proc.signal('TERM');
    pid1.clock.advance(1999);
    expect(pid1.exit).toBeUndefined();
    pid1.clock.advance(1);
    expect(pid1.exit?.code).toBe(143);

    // Last command of sh -c with no trap: busybox execs it, so serve gets the signal.
    const execd = start(sh('echo starting; serve'), { rootfs: WITH_SERVE });
    execd.proc.signal('TERM');
    expect(execd.exit?.code).toBe(0);

    const child = start(sh('serve; exit 5'), { rootfs: WITH_SERVE });
    child.proc.signal('TERM');
    child.clock.advance(60_000);
    expect(child.exit).toBeUndefined();
  });

  it('serve --on-term=ignore survives SIGTERM', () => {
    const run = start(['serve', '--on-term=ignore'], { rootfs: WITH_SERVE });
    run.proc.signal('TERM');
    run.clock.advance(60_000);
    expect(run.exit).toBeUndefined();
  });
});

describe('memory limit and OOM', () => {
  it('PID 1 over the limit is OOM-killed: 137', () => {
    const run = start(sh('sleep 1; exec dd if=/dev/zero of=/dev/null bs=64M'), { limit: 32 * MiB });
    run.clock.advance(1000);
    expect(run.exit).toBeUndefined();
    run.clock.advance(OOM_DELAY_MS);
    expect(run.exit).toEqual({ code: 137, at: 1000 + OOM_DELAY_MS });
    expect(run.ooms).toBe(1);
  });

  it('the last command of sh -c is exec’d, so dd there is PID 1 as well', () => {
    const run = start(sh('sleep 1; dd if=/dev/zero of=/dev/null bs=64M'), { limit: 32 * MiB });
    run.clock.advance(2000);
    expect(run.exit?.code).toBe(137);
  });

  it('a child OOM kill leaves the shell running with $? = 137', () => {
    const run = start(sh('dd if=/dev/zero of=/dev/null bs=64M; sleep 5; exit $?'), {
      limit: 32 * MiB,
    });
    run.clock.advance(OOM_DELAY_MS);
    expect(run.ooms).toBe(1);
    expect(run.exit).toBeUndefined();
    run.clock.advance(5000);
    expect(run.exit?.code).toBe(0);
  });

  it('under the limit dd runs forever holding its buffer and a core', () => {
    const run = start(['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=16M'], { limit: 32 * MiB });
    run.clock.advance(10_000);
    expect(run.exit).toBeUndefined();
    expect(run.proc.memoryBytes()).toBe(BASE_MEMORY_BYTES + 16 * MiB);
    expect(run.proc.cpuCoreNanos()).toBeCloseTo(10_000 * 1e6 * (1 + 0.0005), -3);
  });

  it('a bounded dd ends at once unless its buffer is over the limit', () => {
    expect(start(sh('dd if=/dev/zero of=/dev/null bs=1M count=1; exit $?')).exit).toBeUndefined();
    const ok = start(sh('dd if=/dev/zero of=/dev/null bs=1M count=1; exit $?'));
    ok.clock.advance(0);
    expect(ok.exit?.code).toBe(0);
  });
});

describe('background jobs, busy loops, files', () => {
  it('wait returns when the last job ends', () => {
    const run = start(sh('sleep 2 & sleep 5 & wait; exit 7'));
    run.clock.advance(4999);
    expect(run.exit).toBeUndefined();
    run.clock.advance(1);
    expect(run.exit).toEqual({ code: 7, at: 5000 });
  });

  it('a busy loop runs 1000 commands per virtual second on one core', () => {
    const run = start(sh('while true; do :; done'));
    run.clock.advance(3000);
    expect(run.exit).toBeUndefined();
    expect(run.proc.cpuCores()).toBeGreaterThanOrEqual(1);
  });

  it('files written by redirection or touch are visible to tests', () => {
    const files = new Set<string>();
    const run = start(
      sh('echo ok > /tmp/ready; touch /tmp/b; [ -f /tmp/ready ] && exit 0; exit 1'),
      { files },
    );
    expect(run.exit?.code).toBe(0);
    expect([...files].sort()).toEqual(['/tmp/b', '/tmp/ready']);
    expect(start(sh('cat < /tmp/missing')).exit?.code).toBe(1);
  });
});

describe('ExecSync', () => {
  it('captures stdout and the exit status, sharing the files', async () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    const files = new Set(['/tmp/healthy']);
    const exec = (argv: string[]) => {
      const e = new SimExec({ clock, rootfs: BUSYBOX, argv, env: { HOSTNAME: 'node-a' }, files });
      e.start();
      return e.done;
    };
    await expect(exec(['cat', '/tmp/healthy'])).resolves.toMatchObject({ exitCode: 0 });
    await expect(exec(['cat', '/tmp/nope'])).resolves.toMatchObject({ exitCode: 1 });
    await expect(exec(['sh', '-c', 'echo hi; hostname; exit 3'])).resolves.toEqual({
      exitCode: 3,
      stdout: 'hi\nnode-a\n',
      stderr: '',
    });
    const slow = exec(['sleep', '2']);
    clock.advance(2000);
    await expect(slow).resolves.toMatchObject({ exitCode: 0 });
  });
});
