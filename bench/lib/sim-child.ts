/**
 * The simulator process of a benchmark: simulated CRI nodes (server/sim, real gRPC on unix
 * sockets) holding the benchmark population, driven over IPC by the parent (sim-process.ts).
 * It runs in its own process so the engine under test shares nothing with it but the machine.
 *
 *   node --import tsx bench/lib/sim-child.ts SOCKET_DIR
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createClock, startSimNode, type SimNode } from '@/server/sim';
import { Churner, NodePopulation } from './population';
import type { Envelope, SimReply, SimRequest } from './sim-protocol';

const socketDir = process.argv[2];
if (!socketDir) throw new Error('usage: sim-child.ts SOCKET_DIR [shared]');
/** Other simulator processes keep their sockets in the folder too: the parent removes it. */
const sharedDir = process.argv[3] === 'shared';
mkdirSync(socketDir, { recursive: true });

const clock = createClock({ mode: 'real', speed: 1 });
const nodes: SimNode[] = [];
const populations = new Map<string, NodePopulation>();
const churner = new Churner(20260101);
let auto: ReturnType<typeof setInterval> | undefined;
let autoCarry = 0;

const info = () => ({
  ok: true as const,
  nodes: nodes.map((n) => ({ name: n.name, endpoint: n.endpoint })),
});

async function grow(req: Extract<SimRequest, { op: 'grow' }>): Promise<SimReply> {
  const names =
    req.names ??
    Array.from(
      { length: Math.max(0, req.nodes - nodes.length) },
      (_, k) => `bench-${String(nodes.length + k + 1).padStart(3, '0')}`,
    );
  for (const name of names) {
    const node = await startSimNode({
      name,
      socketPath: join(socketDir as string, `${name}.sock`),
      clock,
      seed: `bench/${name}`,
      eventsMode: req.eventsMode,
    });
    const population = new NodePopulation(node.runtime, name);
    population.populate(req.pods, req.containers);
    nodes.push(node);
    populations.set(name, population);
  }
  return info();
}

function churn(perNode: number, names?: string[]): number {
  let changed = 0;
  for (const name of names ?? [...populations.keys()]) {
    const p = populations.get(name);
    if (p) changed += churner.step(p, perNode);
  }
  return changed;
}

/** Spreads `count` changes over the nodes, round robin from a moving start. */
let cursor = 0;
function churnSpread(count: number): void {
  const list = [...populations.values()];
  if (list.length === 0) return;
  for (let i = 0; i < count; i++) {
    const p = list[cursor++ % list.length];
    if (p) churner.step(p, 1);
  }
}

function handle(req: SimRequest): Promise<SimReply> | SimReply {
  switch (req.op) {
    case 'grow':
      return grow(req);
    case 'churn': {
      const changed = churn(req.perNode, req.nodes);
      return { ok: true, changed, t: Date.now() };
    }
    case 'autochurn': {
      if (auto) clearInterval(auto);
      auto = undefined;
      autoCarry = 0;
      if (req.perSecond > 0) {
        auto = setInterval(() => {
          autoCarry += (req.perSecond * req.tickMs) / 1000;
          const whole = Math.floor(autoCarry);
          autoCarry -= whole;
          churnSpread(whole);
        }, req.tickMs);
      }
      return { ok: true };
    }
    case 'flip': {
      const p = populations.get(req.node);
      const slot = p?.slots[req.slot];
      if (!p || !slot) return { ok: false, error: `no slot ${req.slot} on ${req.node}` };
      const t = Date.now();
      const { to } = p.churn(req.slot);
      return {
        ok: true,
        t,
        podUid: slot.pod.metadata?.uid ?? '',
        container: slot.container.name,
        to,
      };
    }
    case 'slot': {
      const p = populations.get(req.node);
      const slot = p?.slots[req.slot];
      if (!p || !slot) return { ok: false, error: `no slot ${req.slot} on ${req.node}` };
      const state = p.runtime.containers.get(slot.id)?.state ?? 'missing';
      return {
        ok: true,
        podUid: slot.pod.metadata?.uid ?? '',
        container: slot.container.name,
        state,
      };
    }
    case 'usage': {
      const u = process.cpuUsage();
      return {
        ok: true,
        cpuMs: (u.user + u.system) / 1000,
        rssMb: process.memoryUsage().rss / 2 ** 20,
      };
    }
    case 'stop':
      return stop();
  }
}

async function stop(): Promise<SimReply> {
  if (auto) clearInterval(auto);
  await Promise.all(nodes.map((n) => n.stop()));
  clock.close();
  if (!sharedDir) rmSync(socketDir as string, { recursive: true, force: true });
  setTimeout(() => process.exit(0), 10);
  return { ok: true };
}

process.on('message', (raw: Envelope<SimRequest>) => {
  void Promise.resolve()
    .then(() => handle(raw.body))
    .catch((err: unknown) => ({
      ok: false as const,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }))
    .then((body) => process.send?.({ id: raw.id, body } satisfies Envelope<SimReply>));
});
// The parent going away ends the simulator too (no orphaned sockets).
process.on('disconnect', () => void stop());
process.send?.({ id: 0, body: { ok: true } } satisfies Envelope<SimReply>);
