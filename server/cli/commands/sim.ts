/**
 * `podscope sim --nodes N [--socket-dir DIR] [--speed X] [--seed S] [--events stream|unimplemented] [--demo]`:
 * runs N simulated CRI nodes (server/sim), each a real gRPC server on its own unix socket (empty,
 * or with --demo running the demo workload `npm start` shows, through the kubelet stand-in),
 * prints one line per node — `NAME unix:///DIR/NAME.sock` — and serves until SIGINT or SIGTERM,
 * then removes its sockets. Stable output contract: scripts read the lines from stdout.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSimWorkload } from '@/server/runtime/embedded';
import { startSimCluster } from '@/server/sim';
import type { SimCluster } from '@/server/sim';
import type { Command } from '../command';
import { UsageError } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope sim --nodes N [--socket-dir DIR] [--speed X] [--seed S] [--events MODE] [--demo]

Runs N simulated CRI nodes (no pods unless --demo: a kubelet stand-in puts them there), each a real gRPC
runtime.v1 server on DIR/NAME.sock, prints "NAME unix:///DIR/NAME.sock" per node on stdout,
and serves until interrupted (SIGINT/SIGTERM); then it removes the sockets.

  --nodes N          how many nodes (default 1, at most 1000)
  --socket-dir DIR   where the sockets go (default: a new temporary folder, removed on exit)
  --speed X          virtual seconds per real second (default 1)
  --seed S           seed for ids and simulated noise (default "podscope")
  --events MODE      GetContainerEvents: "stream" (containerd 1.7+, default) or
                     "unimplemented" (containerd 1.6)
  --demo             run the demo workload of \`npm start\` on the nodes (a kubelet stand-in per
                     node), so agents watching them (\`podscope agent\`) see a living cluster

Images, commands and behaviours: server/sim/CATALOGUE.md.`;

/** sun_path holds 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export interface SimArgs {
  nodes: number;
  socketDir?: string;
  speed: number;
  seed: string;
  events: 'stream' | 'unimplemented';
  /** Run the demo workload (server/demo/workload) through a kubelet stand-in per node. */
  demo?: boolean;
}

export function parseSimArgs(args: string[]): SimArgs {
  const { values, positionals } = parse(args, {
    nodes: { type: 'string' },
    'socket-dir': { type: 'string' },
    speed: { type: 'string' },
    seed: { type: 'string' },
    events: { type: 'string' },
    demo: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const nodes = values.nodes === undefined ? 1 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 1000) {
    throw new UsageError(`--nodes ${values.nodes}: give a whole number from 1 to 1000`);
  }
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new UsageError(`--speed ${values.speed}: give a positive number`);
  }
  const events = values.events ?? 'stream';
  if (events !== 'stream' && events !== 'unimplemented') {
    throw new UsageError(`--events ${events}: "stream" or "unimplemented"`);
  }
  const parsed: SimArgs = { nodes, speed, seed: values.seed ?? 'podscope', events };
  if (values.demo) parsed.demo = true;
  if (values['socket-dir'] !== undefined) {
    const dir = resolve(values['socket-dir']);
    const longest = join(dir, `sim-node-${String(nodes).padStart(3, '0')}.sock`);
    if (Buffer.byteLength(longest) > MAX_SOCKET_PATH) {
      throw new UsageError(
        `--socket-dir ${dir}: socket paths would exceed ${MAX_SOCKET_PATH} bytes; choose a shorter folder`,
      );
    }
    parsed.socketDir = dir;
  }
  return parsed;
}

/** The demo workload's numeric seed from --seed (a number as is, a word hashed). */
export function demoSeed(seed: string): number {
  if (/^\d+$/.test(seed)) return Number(seed);
  let h = 0;
  for (const ch of seed) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolveSignal) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolveSignal(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export const simCommand: Command = {
  name: 'sim',
  summary: 'run simulated CRI nodes on unix sockets until interrupted',
  usage,
  async run(args) {
    const opts = parseSimArgs(args);
    if (opts.socketDir) mkdirSync(opts.socketDir, { recursive: true });
    const stopping = untilSignal();
    let cluster: SimCluster | undefined;
    const stops: (() => Promise<void>)[] = [];
    try {
      cluster = await startSimCluster({
        nodes: opts.nodes,
        clock: { mode: 'real', speed: opts.speed },
        seed: opts.seed,
        eventsMode: opts.events,
        ...(opts.socketDir ? { socketDir: opts.socketDir } : {}),
      });
      const sim = cluster;
      if (opts.demo) {
        const workload = await startSimWorkload(sim, {
          seed: demoSeed(opts.seed),
          log: (line) => process.stderr.write(`sim: ${line}\n`),
        });
        stops.push(() => workload.stop());
      }
      process.stdout.write(sim.nodes.map((n) => `${n.name} ${n.endpoint}\n`).join(''));
      await stopping;
      return 0;
    } finally {
      for (const stop of stops.reverse()) await stop();
      await cluster?.stop();
    }
  },
};
