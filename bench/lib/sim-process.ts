/** Starts the simulator child process (sim-child.ts) and talks to it over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Envelope, SimNodeInfo, SimReply, SimRequest } from './sim-protocol';

type Ok<R> = Extract<R, { ok: true }>;

export class SimProcess {
  private next = 1;
  private readonly waiting = new Map<number, (r: SimReply) => void>();
  nodes: SimNodeInfo[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly socketDir: string,
  ) {
    child.on('message', (m: Envelope<SimReply>) => {
      const done = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      done?.(m.body);
    });
    child.on('exit', (code, signal) => {
      for (const done of this.waiting.values())
        done({ ok: false, error: `simulator exited (${code ?? signal})` });
      this.waiting.clear();
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** Forks the simulator with its sockets in a new short temp folder (sun_path is 108 bytes). */
  static async start(): Promise<SimProcess> {
    const dir = mkdtempSync('/tmp/psb-');
    const child = fork(fileURLToPath(new URL('./sim-child.ts', import.meta.url)), [dir], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const sim = new SimProcess(child, dir);
    await new Promise<void>((resolve, reject) => {
      sim.waiting.set(0, () => resolve());
      child.once('exit', (code) => reject(new Error(`simulator exited at start (${code})`)));
    });
    return sim;
  }

  request<R extends SimReply = SimReply>(body: SimRequest): Promise<Ok<R>> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) =>
        r.ok ? resolve(r as Ok<R>) : reject(new Error(`simulator ${body.op}: ${r.error}`)),
      );
      this.child.send({ id, body } satisfies Envelope<SimRequest>);
    });
  }

  async grow(
    nodes: number,
    opts: { pods?: number; containers?: number; eventsMode?: 'stream' | 'unimplemented' } = {},
  ): Promise<SimNodeInfo[]> {
    const r = await this.request<Extract<SimReply, { nodes: SimNodeInfo[] }>>({
      op: 'grow',
      nodes,
      pods: opts.pods ?? 110,
      containers: opts.containers ?? 3,
      eventsMode: opts.eventsMode ?? 'stream',
    });
    this.nodes = r.nodes;
    return r.nodes;
  }

  async churn(perNode: number, nodes?: string[]): Promise<number> {
    const r = await this.request<Extract<SimReply, { changed: number }>>({
      op: 'churn',
      perNode,
      ...(nodes ? { nodes } : {}),
    });
    return r.changed;
  }

  async autochurn(perSecond: number, tickMs = 100): Promise<void> {
    await this.request({ op: 'autochurn', perSecond, tickMs });
  }

  flip(node: string, slot: number) {
    return this.request<Extract<SimReply, { to: 'exited' | 'running' }>>({
      op: 'flip',
      node,
      slot,
    });
  }

  slot(node: string, slot: number) {
    return this.request<Extract<SimReply, { state: string }>>({ op: 'slot', node, slot });
  }

  usage() {
    return this.request<Extract<SimReply, { cpuMs: number }>>({ op: 'usage' });
  }

  stop(): Promise<void> {
    return stopChild(this.child, () => this.request({ op: 'stop' }));
  }
}

/**
 * Ends a benchmark child process: asks it to stop (`ask`, given 5 s), then SIGKILL if it has not
 * exited 5 s later.
 */
export async function stopChild(child: ChildProcess, ask: () => Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([ask().catch(() => undefined), new Promise((r) => setTimeout(r, 5_000))]);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
