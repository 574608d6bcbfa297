/**
 * Where the bytes of the cluster.watch stream go, without a server: what `stream_bytes_per_transition`
 * (bench/suites/scale.ts) measures on a real `next start`, rebuilt in one process so a change to
 * the wire can be weighed in seconds, deterministically (bytes do not depend on CPU noise).
 *
 * Churn recorded once from the real node engine on a simulated node (synthetic-nodes.ts: 110
 * pods × 3 containers, one container changed per relist, as the scale suite's simulator churns),
 * replayed as `nodes` nodes of their own (names, pod uids and 64-hex container/sandbox ids renamed
 * per node, so strings repeat across the stream as often as they would in the cluster), after a
 * snapshot of all of them. Each SSE message carries `perMessage` nodes' churn relists (the scale
 * run delivered ~2.4 transitions per 20 ms message), encoded by the lean wire (seeded with the
 * snapshot, as cluster.watch does), serialized by the tRPC transformer and framed as tRPC's SSE
 * producer writes it, then gzipped the way `next start` does: the `compression` middleware's
 * `flush()` after every chunk the route writes — a zlib FULL flush, which resets the compressor's
 * history. `sync` shows the same bytes with a sync flush per message (the history kept), for
 * reference.
 *
 *   node --import tsx bench/lib/wire-bytes.ts [nodes=91] [perMessage=2] [messages=600] [version=2]
 *   (REGROUP=0: the route's chunks as tRPC writes them, three flushes per message;
 *    USAGE=x: NodeUpdated usage events per transition, default 0.08)
 */
import { createHash } from 'node:crypto';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { decode, transformer } from '@/lib/timeline/codec';
import type { TimelineEvent } from '@/lib/timeline/events';
import type { ClusterState, NodeView } from '@/lib/timeline/state';
import { oneChunkPerMessage } from '@/server/trpc/compress';
import { WIRE_VERSION, WireEncoder, type WireVersion } from '@/lib/timeline/wire';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeUsage } from '@/lib/kubelet/usage';
import { criRuntime } from '@/server/engine/relist/cri-runtime';
import { UsageSampler } from '@/server/engine/node/usage-sampler';
import { startSimNode } from '@/server/sim';
import { benchUid, Churner, NodePopulation } from './population';
import { recordTemplates, SyntheticNode, type Templates } from './synthetic-nodes';

export interface WireBytesOptions {
  nodes?: number;
  /** Nodes' churn relists per SSE message. */
  perMessage?: number;
  messages?: number;
  /**
   * The route's body regrouped into one chunk per message, as server/trpc/compress.ts does
   * (default); false: the three chunks tRPC writes, each flushed (before the regrouping).
   */
  regroup?: boolean;
  /** The wire version encoded (default the newest). */
  version?: WireVersion;
  /**
   * NodeUpdated usage events per container transition: a churning node records its usage every
   * 10 s (server/engine/node/usage-sampler.ts); the scale run of 2026-12-03 carried 91 against 1,140
   * transitions (default 0.08; 0: none).
   */
  usagePerTransition?: number;
  /** Recorded once and reused (recording takes a few seconds). */
  templates?: Templates;
}

export interface WireBytesResult {
  messages: number;
  events: number;
  transitions: number;
  /** SSE text per transition (what EventSource parses). */
  plainPerTransition: number;
  /** As `next start` sends it: gzip with a full flush after every chunk. */
  gzipPerTransition: number;
  /** Gzip with one sync flush per message (history kept), for reference. */
  syncPerTransition: number;
  /** Wire-frame JSON per transition by event kind, and by event field (`kind.field`). */
  byKind: Record<string, number>;
  byField: Record<string, number>;
}

/** A tracked message as tRPC's SSE producer writes it: three chunks, each flushed by `next start`. */
const sseChunks = (id: string, data: string) => [`data: ${data}\n`, `id: ${id}\n`, '\n\n'];

const USAGE_NODE = 'usage-template-node';
const uidPrefix = (node: string) => benchUid(node, 0).slice(0, 8);

/**
 * Usage as the node engine samples it (ListContainerStats through UsageSampler) from a simulated
 * node of the bench population, a few containers churned between samples.
 */
async function recordUsage(samples: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'psb-usage-'));
  const sim = await startSimNode({
    name: USAGE_NODE,
    socketPath: join(dir, 'node.sock'),
    eventsMode: 'unimplemented',
  });
  try {
    const population = new NodePopulation(sim.runtime, USAGE_NODE);
    population.populate(110, 3);
    const sampler = new UsageSampler(USAGE_NODE, criRuntime(sim.endpoint));
    const churner = new Churner(20261203);
    const out: string[] = [];
    for (let i = 0; i <= samples; i++) {
      churner.step(population, 3);
      await new Promise((r) => setTimeout(r, 250));
      await sampler.sample(
        () => Date.now(),
        () => true,
        () => undefined,
      );
      // The first sample has no CPU figures yet (one reading per container).
      if (i > 0 && sampler.latest) out.push(JSON.stringify(sampler.latest));
    }
    return out;
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEX64 = /\b[0-9a-f]{64}\b/g;

/** Per node: its own 64-hex ids (the templates' are the same on every node). */
function renameIds(json: string, node: string): string {
  return json.replace(HEX64, (id) => createHash('sha256').update(node).update(id).digest('hex'));
}

class Compressed {
  bytes = 0;
  private readonly gz: Gzip = createGzip();
  constructor(private readonly flush: number) {
    this.gz.on('data', (c: Buffer) => (this.bytes += c.length));
  }
  async write(chunk: string | Uint8Array): Promise<void> {
    this.gz.write(chunk);
    await new Promise<void>((resolve) => this.gz.flush(this.flush, () => resolve()));
  }
}

export async function measureWireBytes(options: WireBytesOptions = {}): Promise<WireBytesResult> {
  const n = options.nodes ?? 91;
  const perMessage = options.perMessage ?? 2;
  const count = options.messages ?? 600;
  const t =
    options.templates ?? (await recordTemplates({ pods: 110, containers: 3, churnSteps: 60 }));
  const usagePerTransition = options.usagePerTransition ?? 0.08;
  const usages = usagePerTransition > 0 ? await recordUsage(6) : [];
  let usageCredit = 0;
  let usageNode = 0;
  const nodes = Array.from(
    { length: n },
    (_, i) => new SyntheticNode('bench', `node-${i}`, t, i * 7),
  );
  const now = 1_764_700_000_000;
  let seq = 0;
  const state: ClusterState = { seq: 0, t: now, nodes: {} };
  for (const node of nodes) {
    node.initial(now);
    // Revived (times as Dates) as the server holds them.
    state.nodes[node.name] = decode<NodeView>(
      renameIds(JSON.stringify(node.state(now).view), node.name),
    );
  }
  seq = 1_000_000;
  state.seq = seq;
  const enc = new WireEncoder({ version: options.version ?? WIRE_VERSION });
  enc.seed(state);
  const full = new Compressed(constants.Z_FULL_FLUSH);
  // What the route writes, through the regrouping as the server has it, into next start's gzip.
  const route =
    options.regroup === false
      ? new TransformStream<Uint8Array, Uint8Array>()
      : oneChunkPerMessage();
  const routeIn = route.writable.getWriter();
  const routeOut = route.readable.pipeTo(new WritableStream({ write: (c) => full.write(c) }));
  const utf8 = new TextEncoder();
  const sync = new Compressed(constants.Z_SYNC_FLUSH);
  let plain = 0;
  let events = 0;
  let transitions = 0;
  const byKind: Record<string, number> = {};
  const byField: Record<string, number> = {};
  let at = 0;
  let time = now;
  for (let m = 0; m < count; m++) {
    time += 20;
    const batch: TimelineEvent[] = [];
    for (let k = 0; k < perMessage; k++) {
      const node = nodes[at % n] as SyntheticNode;
      at += 1 + Math.floor(n / 3); // spread over the nodes, not one after the other
      for (const msg of node.churn(time)) {
        const evs = decode<TimelineEvent[]>(renameIds(JSON.stringify(msg.events), node.name));
        const renum = new Map<number, number>();
        for (const e of evs) {
          renum.set(e.seq, ++seq);
          e.seq = seq;
          if (e.cause !== undefined) {
            const c = renum.get(e.cause);
            if (c === undefined) delete e.cause;
            else e.cause = c;
          }
          batch.push(e);
        }
      }
    }
    // Usage events, spread over the nodes, at the asked rate per transition.
    usageCredit +=
      batch.filter((e) => e.kind === 'container' && e.type === 'ContainerStateChanged').length *
      usagePerTransition;
    for (; usageCredit >= 1 && usages.length > 0; usageCredit--) {
      const i = usageNode++ % n;
      const name = `node-${i}`;
      const json = (usages[(usageNode + i) % usages.length] as string)
        .replaceAll(USAGE_NODE, name)
        .replaceAll(uidPrefix(USAGE_NODE), uidPrefix(name));
      const usage = JSON.parse(json) as NodeUsage;
      batch.push({ kind: 'node', type: 'NodeUpdated', seq: ++seq, t: time, node: name, usage });
    }
    const frame = enc.encode(batch);
    for (const [i, e] of batch.entries()) {
      events++;
      const kind = `${e.kind}:${e.type}`;
      if (kind === 'container:ContainerStateChanged') transitions++;
      const o = frame.e[i] as Record<string, unknown>;
      for (const [f, v] of Object.entries(o)) {
        const b = JSON.stringify(f).length + JSON.stringify(v).length + 2;
        byKind[kind] = (byKind[kind] ?? 0) + b;
        byField[`${kind}.${f}`] = (byField[`${kind}.${f}`] ?? 0) + b;
      }
    }
    const data = JSON.stringify(transformer.serialize(frame));
    const chunks = sseChunks(String(seq), data);
    for (const c of chunks) {
      plain += Buffer.byteLength(c);
      await routeIn.write(utf8.encode(c));
    }
    await sync.write(chunks.join(''));
  }
  await routeIn.close();
  await routeOut;
  const per = (x: number) => Math.round((x / Math.max(1, transitions)) * 10) / 10;
  const perRecord = (r: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(r)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, per(v)]),
    );
  return {
    messages: count,
    events,
    transitions,
    plainPerTransition: per(plain),
    gzipPerTransition: per(full.bytes),
    syncPerTransition: per(sync.bytes),
    byKind: perRecord(byKind),
    byField: perRecord(byField),
  };
}

if (process.argv[1]?.endsWith('wire-bytes.ts')) {
  const [nodes, perMessage, messages, version] = process.argv.slice(2).map(Number);
  void measureWireBytes({
    ...(process.env.USAGE !== undefined ? { usagePerTransition: Number(process.env.USAGE) } : {}),
    regroup: process.env.REGROUP !== '0',
    ...(version === 1 || version === 2 ? { version } : {}),
    ...(nodes ? { nodes } : {}),
    ...(perMessage ? { perMessage } : {}),
    ...(messages ? { messages } : {}),
  }).then((r) => console.log(JSON.stringify(r, null, 2)));
}
