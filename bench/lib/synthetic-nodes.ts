/**
 * Synthetic agents for the cluster benchmarks: what N `podscope agent`s would publish, made by one
 * process. The events are real — recorded once from the real per-node engine
 * (server/engine/node/node-engine.ts, what the agent runs) watching a simulated node of the benchmark
 * population, first relist and a run of crash-loop churn — and replayed for every synthetic node
 * with its own name, pod uids, seqs and times, in envelopes built like the agent's outbox builds
 * them (one relist's events per message, within the envelope's limits).
 *
 *   const t = await recordTemplates({ pods: 30, containers: 2, churnSteps: 40 });
 *   const node = new SyntheticNode('cluster', 'node-00042', t);
 *   node.initial(now)  → the first relist's messages
 *   node.churn(now)    → one churn relist's message(s)
 *   node.heartbeat(now)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { NodeView } from '@/lib/timeline/state';
import {
  ENVELOPE_VERSION,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  newEpoch,
  type EventsMessage,
  type Heartbeat,
  type NodeState,
} from '@/server/cluster/envelope';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { createNodeEngine } from '@/server/engine/node/node-engine';
import { DEFAULT_ENGINE_TIMINGS } from '@/server/engine/timings';
import { startSimNode } from '@/server/sim';
import { benchUid, Churner, NodePopulation } from './population';

/** The node the templates are recorded on (its name and uid prefix are replaced per node). */
const TEMPLATE_NODE = 'synthetic-template-node';

export interface Templates {
  pods: number;
  containers: number;
  /** The first relist's batches, as JSON with the template node's name and uid prefix. */
  initial: string[];
  /** One batch per churn relist (a kill, or the next attempt of a killed container). */
  churn: string[];
  /** The node's view after the first relist (views[0]) and after each churn batch (views[k + 1]). */
  views: string[];
  /** Mean events per churn batch. */
  eventsPerChurn: number;
  eventsInitial: number;
}

/** The uid prefix benchUid() gives a node's pods. */
const uidPrefix = (node: string) => benchUid(node, 0).slice(0, 8);

/**
 * Runs the real node engine against a simulated node in this process: its first relist, then
 * `churnSteps` relists each after one container changed. Takes a few seconds.
 */
export async function recordTemplates(options: {
  pods: number;
  containers: number;
  churnSteps: number;
}): Promise<Templates> {
  const dir = mkdtempSync(join(tmpdir(), 'psb-tpl-'));
  const sim = await startSimNode({
    name: TEMPLATE_NODE,
    socketPath: join(dir, 'node.sock'),
    eventsMode: 'unimplemented',
  });
  const population = new NodePopulation(sim.runtime, TEMPLATE_NODE);
  population.populate(options.pods, options.containers);
  let batches: TimelineEvent[][] = [];
  const engine = createNodeEngine({
    name: TEMPLATE_NODE,
    client: criRuntime(sim.endpoint),
    timings: DEFAULT_ENGINE_TIMINGS,
    onEvents: (b) => batches.push(b),
    log: () => undefined,
  });
  try {
    await engine.watcher.once();
    const initial = batches;
    batches = [];
    const view = () => JSON.stringify(engine.view() ?? null);
    const views = [view()];
    const churner = new Churner(20261202);
    const churn: TimelineEvent[][] = [];
    for (let i = 0; i < options.churnSteps; i++) {
      churner.step(population, 1);
      await engine.watcher.relist();
      const events = batches.flat();
      batches = [];
      if (events.length > 0) {
        churn.push(events);
        views.push(view());
      }
    }
    if (churn.length === 0) throw new Error('churn recorded no events');
    const json = (b: TimelineEvent[]) => JSON.stringify(b);
    return {
      pods: options.pods,
      containers: options.containers,
      initial: initial.filter((b) => b.length > 0).map(json),
      churn: churn.map(json),
      views,
      eventsPerChurn: churn.reduce((n, b) => n + b.length, 0) / churn.length,
      eventsInitial: initial.reduce((n, b) => n + b.length, 0),
    };
  } finally {
    engine.stop();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface NodeMark {
  seq: number;
  next: number;
  at: number;
}

/** One synthetic agent: its epoch, seqs and place in the churn templates. */
export class SyntheticNode {
  readonly epoch = newEpoch();
  private seq = 0;
  private next = 0;
  /** Which template view the node is at (views[k]). */
  private at = 0;

  constructor(
    readonly cluster: string,
    readonly name: string,
    private readonly templates: Templates,
    /** Where in the churn templates this node starts (nodes then differ in what they send). */
    offset = 0,
  ) {
    this.next = offset % templates.churn.length;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Where the node is (its seq and place in the templates), to go back to with `restore`. */
  mark(): NodeMark {
    return { seq: this.seq, next: this.next, at: this.at };
  }

  /** Back to a `mark()`: messages made after it are as if never made (they were not published). */
  restore(m: NodeMark): void {
    this.seq = m.seq;
    this.next = m.next;
    this.at = m.at;
  }

  /** The first relist's messages. */
  initial(now: number): EventsMessage[] {
    this.at = 0;
    return this.templates.initial.flatMap((b) => this.messages(b, now));
  }

  /** The next churn relist's messages (usually one). */
  churn(now: number): EventsMessage[] {
    const b = this.templates.churn[this.next] as string;
    this.at = this.next + 1;
    this.next = (this.next + 1) % this.templates.churn.length;
    return this.messages(b, now);
  }

  /** What every KV entry of the node starts with: who, which run, how far, when. */
  private head(now: number) {
    const { cluster, name: node, epoch, seq } = this;
    return { v: ENVELOPE_VERSION, cluster, node, epoch, seq, t: now } as const;
  }

  /** The node's latest full state (KV), as the agent puts it when it changed. */
  state(now: number): NodeState {
    const view = JSON.parse(this.rename(this.templates.views[this.at] as string)) as NodeView;
    return { ...this.head(now), view };
  }

  private rename(json: string): string {
    return json
      .replaceAll(TEMPLATE_NODE, this.name)
      .replaceAll(uidPrefix(TEMPLATE_NODE), uidPrefix(this.name));
  }

  heartbeat(now: number): Heartbeat {
    return {
      ...this.head(now),
      instance: { host: 'bench-loadgen', pid: process.pid, endpoint: `synthetic://${this.name}` },
      dropped: 0,
    };
  }

  /** A recorded batch as this node's: its names, fresh seqs (causes kept), time now. */
  private messages(json: string, now: number): EventsMessage[] {
    const events = JSON.parse(this.rename(json)) as TimelineEvent[];
    const first = events[0]?.seq ?? 0;
    const base = this.seq + 1;
    for (const e of events) {
      const seq = base + (e.seq - first);
      const ev = e as { seq: number; t: number; cause?: number };
      if (ev.cause !== undefined) {
        if (ev.cause >= first) ev.cause = base + (ev.cause - first);
        else delete ev.cause;
      }
      ev.seq = seq;
      ev.t = now;
    }
    this.seq += events.length;
    // Like the agent's outbox: one relist's events per message, within the envelope's limits.
    const out: EventsMessage[] = [];
    let chunk: TimelineEvent[] = [];
    let bytes = 0;
    const flush = () => {
      if (chunk.length === 0) return;
      out.push({
        v: ENVELOPE_VERSION,
        type: 'events',
        cluster: this.cluster,
        node: this.name,
        epoch: this.epoch,
        seq: chunk[0]?.seq ?? 0,
        t: now,
        events: chunk,
      });
      chunk = [];
      bytes = 0;
    };
    for (const e of events) {
      const size = JSON.stringify(e).length + 1;
      if (chunk.length >= MAX_EVENTS_PER_MESSAGE || bytes + size > MAX_MESSAGE_BYTES - 512) flush();
      chunk.push(e);
      bytes += size;
    }
    flush();
    return out;
  }
}
