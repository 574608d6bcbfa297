/** Starts the simulator child process (sim-child.ts) and talks to it over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Envelope, SimNodeInfo, SimReply, SimRequest } from './sim-protocol';

type Ok<R> = Extract<R, { ok: true }>;

/** One simulator child process and its IPC. */
class SimShard {
  private next = 1;
  private readonly waiting = new Map<number, (r: SimReply) => void>();
  readonly names = new Set<string>();

  private constructor(readonly child: ChildProcess) {
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

  static async start(dir: string, shared: boolean): Promise<SimShard> {
    const child = fork(
      fileURLToPath(new URL('./sim-child.ts', import.meta.url)),
      shared ? [dir, 'shared'] : [dir],
      { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const shard = new SimShard(child);
    await new Promise<void>((resolve, reject) => {
      shard.waiting.set(0, () => resolve());
      child.once('exit', (code) => reject(new Error(`simulator exited at start (${code})`)));
    });
    return shard;
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

  stop(): Promise<void> {
    return stopChild(this.child, () => this.request({ op: 'stop' }));
  }
}

/**
 * The simulated nodes of a benchmark, in one child process or — with `nodesPerProcess` — in as
 * many as it takes: a real node's runtime is its own process, and one simulator process holding
 * hundreds of nodes measures its own garbage collector (one process: 31 % of a core at 150 nodes
 * of 110 pods relisted every second, 91 % at 250, 2026-12-03) rather than the console.
 */
export class SimProcess {
  nodes: SimNodeInfo[] = [];

  private constructor(
    private readonly shards: SimShard[],
    readonly socketDir: string,
    private readonly nodesPerProcess: number,
  ) {}

  /** The first simulator process's id. */
  get pid(): number {
    return this.shards[0]?.child.pid ?? 0;
  }

  /**
   * Forks the simulator with its sockets in a new short temp folder (sun_path is 108 bytes);
   * with `nodesPerProcess`, grow() starts another process for every that many nodes.
   */
  static async start(options: { nodesPerProcess?: number } = {}): Promise<SimProcess> {
    const dir = mkdtempSync('/tmp/psb-');
    const per = options.nodesPerProcess ?? Infinity;
    const shard = await SimShard.start(dir, Number.isFinite(per));
    return new SimProcess([shard], dir, per);
  }

  /** The process holding `node`. */
  private owner(node: string): SimShard {
    const shard = this.shards.find((s) => s.names.has(node));
    if (!shard) throw new Error(`simulator: no node ${node}`);
    return shard;
  }

  private get first(): SimShard {
    return this.shards[0] as SimShard;
  }

  async grow(
    nodes: number,
    opts: { pods?: number; containers?: number; eventsMode?: 'stream' | 'unimplemented' } = {},
  ): Promise<SimNodeInfo[]> {
    const base = {
      op: 'grow' as const,
      pods: opts.pods ?? 110,
      containers: opts.containers ?? 3,
      eventsMode: opts.eventsMode ?? 'stream',
    };
    // Names in order, each process filled up to nodesPerProcess before the next starts.
    const names: string[] = [];
    const wanted = new Map<SimShard, string[]>();
    for (let i = this.nodes.length + 1; i <= nodes; i++) {
      const at = Number.isFinite(this.nodesPerProcess)
        ? Math.floor((i - 1) / this.nodesPerProcess)
        : 0;
      while (this.shards.length <= at) this.shards.push(await SimShard.start(this.socketDir, true));
      const shard = this.shards[at] as SimShard;
      const name = `bench-${String(i).padStart(3, '0')}`;
      names.push(name);
      wanted.set(shard, [...(wanted.get(shard) ?? []), name]);
    }
    const replies = await Promise.all(
      [...wanted].map(([shard, mine]) =>
        shard
          .request<Extract<SimReply, { nodes: SimNodeInfo[] }>>({ ...base, nodes, names: mine })
          .then((r) => {
            for (const n of mine) shard.names.add(n);
            return r.nodes;
          }),
      ),
    );
    const byName = new Map(replies.flat().map((n) => [n.name, n]));
    for (const name of names) {
      const info = byName.get(name);
      if (info) this.nodes.push(info);
    }
    return this.nodes;
  }

  async churn(perNode: number, nodes?: string[]): Promise<number> {
    const replies = await Promise.all(
      this.shards.map((s) => {
        const mine = nodes?.filter((n) => s.names.has(n));
        if (mine?.length === 0) return Promise.resolve({ changed: 0 });
        return s.request<Extract<SimReply, { changed: number }>>({
          op: 'churn',
          perNode,
          ...(mine ? { nodes: mine } : {}),
        });
      }),
    );
    return replies.reduce((sum, r) => sum + r.changed, 0);
  }

  /** `perSecond` changes spread over every node: each process takes its nodes' share. */
  async autochurn(perSecond: number, tickMs = 100): Promise<void> {
    const total = this.shards.reduce((n, s) => n + s.names.size, 0);
    await Promise.all(
      this.shards.map((s) =>
        s.request({
          op: 'autochurn',
          perSecond:
            this.shards.length === 1 || total === 0
              ? perSecond
              : (perSecond * s.names.size) / total,
          tickMs,
        }),
      ),
    );
  }

  async flip(node: string, slot: number) {
    return this.owner(node).request<Extract<SimReply, { to: 'exited' | 'running' }>>({
      op: 'flip',
      node,
      slot,
    });
  }

  async slot(node: string, slot: number) {
    return this.owner(node).request<Extract<SimReply, { state: string }>>({
      op: 'slot',
      node,
      slot,
    });
  }

  /** CPU time and resident memory of every simulator process together. */
  async usage(): Promise<Ok<Extract<SimReply, { cpuMs: number }>>> {
    const all = await Promise.all(
      this.shards.map((s) => s.request<Extract<SimReply, { cpuMs: number }>>({ op: 'usage' })),
    );
    return {
      ok: true,
      cpuMs: all.reduce((n, u) => n + u.cpuMs, 0),
      rssMb: all.reduce((n, u) => n + u.rssMb, 0),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.stop()));
    if (Number.isFinite(this.nodesPerProcess))
      rmSync(this.socketDir, { recursive: true, force: true });
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
