/** Starts the cluster load generator (loadgen-child.ts) in its own process and talks to it over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadEnvelope, LoadReply, LoadRequest, LoadStats } from './loadgen-protocol';
import { stopChild } from './sim-process';

export class LoadGenerator {
  private next = 1;
  private readonly waiting = new Map<number, (r: LoadReply) => void>();

  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: LoadEnvelope<LoadReply>) => {
      const done = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      done?.(m.body);
    });
    // A send after the child died fails here, not as an unhandled 'error' event.
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      for (const done of this.waiting.values())
        done({ ok: false, error: `load generator exited (${code ?? signal})` });
      this.waiting.clear();
    });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(options: Omit<Extract<LoadRequest, { op: 'start' }>, 'op'>) {
    const child = fork(fileURLToPath(new URL('./loadgen-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const gen = new LoadGenerator(child);
    await new Promise<void>((resolve, reject) => {
      gen.waiting.set(0, () => resolve());
      child.once('exit', (code) => reject(new Error(`load generator exited at start (${code})`)));
    });
    await gen.request({ op: 'start', ...options });
    return gen;
  }

  request(body: LoadRequest): Promise<LoadReply & { ok: true }> {
    const id = this.next++;
    if (!this.child.connected)
      return Promise.reject(new Error(`load generator ${body.op}: the process has exited`));
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) =>
        r.ok ? resolve(r) : reject(new Error(`load generator ${body.op}: ${r.error}`)),
      );
      this.child.send({ id, body } satisfies LoadEnvelope<LoadRequest>);
    });
  }

  async grow(nodes: number): Promise<LoadStats> {
    return (await this.request({ op: 'grow', nodes })) as LoadStats & { ok: true };
  }

  async churn(everyMs: number): Promise<void> {
    await this.request({ op: 'churn', everyMs });
  }

  async prepare(events: number): Promise<LoadStats> {
    return (await this.request({ op: 'prepare', events })) as LoadStats & { ok: true };
  }

  async flood(ms: number, inFlight: number, eventsPerS = 0): Promise<LoadStats> {
    return (await this.request({ op: 'flood', ms, inFlight, eventsPerS })) as LoadStats & {
      ok: true;
    };
  }

  async stats(): Promise<LoadStats> {
    return (await this.request({ op: 'stats' })) as LoadStats & { ok: true };
  }

  stop(): Promise<void> {
    return stopChild(this.child, () => this.request({ op: 'stop' }));
  }
}
