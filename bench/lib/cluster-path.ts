/**
 * The console's cluster path in one process, without NATS or PostgreSQL: synthetic agents'
 * messages (synthetic-nodes.ts) encoded as they travel, then what a replica does with each —
 * parse (twice: the view's tail and the writer), the writer's rows, the view's fold, the live bus
 * and one subscriber's lean-wire SSE frame. For profiling (`--cpu-prof`) and quick comparisons:
 *
 *   node --import tsx bench/lib/cluster-path.ts [nodes] [pods] [churns]
 *   CLUSTER_PATH_PG=1 node --import tsx bench/lib/cluster-path.ts …   # and the writer's commits
 *
 * It stands in for the bus (no NATS): the view's and the writer's reads share one parse, as the
 * replica's reader gives them (server/cluster/bus/reader.ts). With CLUSTER_PATH_PG=1 the churn's
 * events are then committed to a real PostgreSQL (test/cluster/harness) as the writer commits
 * them, batches of 1,000 messages, and the console's CPU per committed event is reported on its
 * own.
 */
import { encodeMessage, summaryOf } from '@/server/cluster/envelope';
import { parseBusMessage } from '@/server/cluster/parse';
import { ClusterView } from '@/server/cluster/view';
import { globalEvents } from '@/server/cluster/global';
import { WIRE_VERSION, WireEncoder } from '@/lib/timeline/wire';
import { openClusterTimeline, type StoredMessage } from '@/server/cluster/timeline/timeline';
import { treeCpuMs } from './server';
import { startPostgres } from '@/test/cluster/harness';
import { recordTemplates, SyntheticNode } from './synthetic-nodes';

/** As the console now reads (one parse per message); PARSE_TWICE=1 for how it read before. */
const SHARED = process.env.PARSE_TWICE !== '1';

async function main() {
  const [nodesArg, podsArg, churnArg] = process.argv.slice(2).map(Number);
  const n = nodesArg || 100;
  const pods = podsArg || 30;
  const churns = churnArg || 20_000;
  const t = await recordTemplates({ pods, containers: 2, churnSteps: 40 });
  const nodes = Array.from(
    { length: n },
    (_, i) => new SyntheticNode('bench', `ingest-${i}`, t, i * 7),
  );
  const now = Date.now();
  const initial = nodes.flatMap((x) => x.initial(now));
  const churn = Array.from({ length: churns }, (_, i) =>
    (nodes[i % n] as SyntheticNode).churn(now),
  ).flat();
  const bytes = [...initial, ...churn].map((m) => ({ node: m.node, data: encodeMessage(m) }));
  const view = new ClusterView({ graceMs: 40_000 });
  // As the console's browser asks for it (bench/lib/sse.ts watchUrl).
  const enc = new WireEncoder({ version: WIRE_VERSION });
  let sse = 0;
  let pending: unknown[] = [];
  view.onApplied((evs) => pending.push(...evs));
  const run = (from: number, to: number) => {
    let events = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = from; i < to; i++) {
      const b = bytes[i]!;
      const p = parseBusMessage(b.data, 'bench', b.node);
      if (!p.ok) throw new Error(p.detail);
      view.apply({ streamSeq: i + 1, subject: '', message: p.value });
      // the writer's rows (the replica's reader hands the writer the view's verdict)
      const w = SHARED ? p : parseBusMessage(b.data, 'bench', b.node);
      if (!w.ok) throw new Error(w.detail);
      const rows = globalEvents(i + 1, w.value);
      events += rows.length;
      if (i % 20 === 0 && pending.length > 0) {
        sse += JSON.stringify(enc.encode(pending as never)).length;
        pending = [];
      }
    }
    const c = process.cpuUsage(c0);
    return { events, ms: performance.now() - t0, cpuUs: c.user + c.system };
  };
  const a = run(0, initial.length);
  console.log(
    `initial: ${a.events} events in ${a.ms.toFixed(0)} ms (${Math.round(a.events / (a.ms / 1000))} ev/s)`,
  );
  const b = run(initial.length, bytes.length);
  console.log(
    `churn: ${b.events} events in ${b.ms.toFixed(0)} ms (${Math.round(b.events / (b.ms / 1000))} ev/s), ${(b.cpuUs / b.events).toFixed(1)} µs CPU per event; sse ${sse} B`,
  );
  if (process.env.CLUSTER_PATH_PG === '1') await commits(bytes, initial.length);
}

/**
 * The writer's part: every message committed as the writer commits it (one row per message),
 * 1,000 messages per batch; this process's CPU and PostgreSQL's (its backends) per event.
 */
async function commits(bytes: { node: string; data: Uint8Array }[], churnFrom: number) {
  const pgi = await startPostgres();
  try {
    const timeline = await openClusterTimeline({ url: await pgi.createDatabase('path') });
    const batches: StoredMessage[][] = [];
    for (let i = 0; i < bytes.length; i += 1_000) {
      batches.push(
        bytes.slice(i, i + 1_000).map((b, j) => {
          const p = parseBusMessage(b.data, 'bench', b.node);
          if (!p.ok) throw new Error(p.detail);
          return {
            streamSeq: i + j + 1,
            summary: summaryOf(p.value),
            body: b.data,
          };
        }),
      );
    }
    let events = 0;
    let cpuUs = 0;
    let pgMs = 0;
    const t0 = performance.now();
    for (const [k, batch] of batches.entries()) {
      const c0 = process.cpuUsage();
      const pg0 = pgi.pid ? treeCpuMs(pgi.pid) : 0;
      const prepared = timeline.prepareInsert(batch);
      const inserted = await timeline.insertPrepared(prepared);
      const c = process.cpuUsage(c0);
      const pg1 = pgi.pid ? treeCpuMs(pgi.pid) : 0;
      if (inserted !== prepared.count)
        throw new Error(`${inserted} of ${prepared.count} events inserted`);
      if (k * 1_000 < churnFrom) continue;
      cpuUs += c.user + c.system;
      pgMs += pg1 - pg0;
      events += prepared.count;
    }
    console.log(
      `commits: ${events} churn events in ${(performance.now() - t0).toFixed(0)} ms, ${(cpuUs / events).toFixed(1)} µs CPU per event (this process), ${((pgMs * 1000) / events).toFixed(1)} µs (PostgreSQL)`,
    );
    await timeline.close();
  } finally {
    await pgi.destroy();
  }
}
void main();
