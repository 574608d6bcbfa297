/**
 * startSimNode / startSimCluster: simulated CRI nodes on real sockets.
 *
 * A node = an in-memory runtime (model.ts) + stats + faults + a gRPC server on its own unix
 * socket (or loopback tcp port). Nodes of a cluster share one clock and derive their randomness
 * from one seed, so a cluster replays identically. The runtime outlives its socket: restart()
 * takes the socket away and brings it back while containers keep running, as containerd does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { createClock } from './clock/clock';
import type { ClockConfig, SimClock } from './clock/clock';
import { Faults } from './faults';
import type { FaultConfig } from './faults';
import { bindGrpc, clearSocket, endpointOf, RawListener } from './listener';
import type { Address, RawMode } from './listener';
import { SimRuntime } from './runtime/model';
import type { EventsMode, SimCondition } from './runtime/model';
import { createRandom } from '@/lib/random';
import { createCriServer, DEFAULT_VERSION, EventStreams } from './server';
import type { VersionInfo } from './server';
import { StatsView } from './runtime/stats';
import type { NodeCapacity, NodePressure } from './runtime/stats';

export interface SimNodeOptions {
  name: string;
  /** Unix socket path. Default: `<new temp dir>/<name>.sock`. */
  socketPath?: string;
  /** Listen on loopback TCP instead (port 0 = any free port). */
  tcp?: { host?: string; port?: number };
  /** A shared clock, or how to make this node's own. Default: real time, speed 1. */
  clock?: SimClock | ClockConfig;
  /** Seed for ids, latency draws and stats wander. Default: the node name. */
  seed?: string | number;
  /** 'stream' answers GetContainerEvents like containerd 1.7+; 'unimplemented' like 1.6. */
  eventsMode?: EventsMode;
  capacity?: Partial<NodeCapacity>;
  /** Images present at start; default the busybox image (also the sandbox image). */
  preloadImages?: readonly string[];
  faults?: FaultConfig;
  version?: VersionInfo;
}

export type ListenerMode = 'grpc' | RawMode | 'down';

export interface SimNode {
  readonly name: string;
  /** `unix:///…/name.sock` or `tcp://127.0.0.1:port`. */
  readonly endpoint: string;
  readonly clock: SimClock;
  /** The in-memory runtime, for inspection and direct fault injection. */
  readonly runtime: SimRuntime;
  readonly stats: StatsView;
  readonly faults: Faults;
  /** What answers on the socket now. */
  readonly listener: ListenerMode;
  /** RuntimeReady / NetworkReady as Status reports them. */
  setCondition(type: 'RuntimeReady' | 'NetworkReady', condition: SimCondition): void;
  /** Extra node usage on top of what runs (memory, disk, inodes, pids): node pressure. */
  setPressure(pressure: Partial<NodePressure>): void;
  /** Ends every open GetContainerEvents stream with UNAVAILABLE. */
  dropEventStreams(): void;
  /** Replaces what listens on the socket: the gRPC server, a garbage writer, a silent listener, nothing. */
  setListener(mode: ListenerMode): Promise<void>;
  /** The socket goes away for `downMs` wall-clock ms and comes back; containers keep running. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stops listening, removes the socket, closes the clock if the node made it. Idempotent. */
  stop(): Promise<void>;
}

function shutdown(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.forceShutdown();
    resolve();
  });
}

export async function startSimNode(options: SimNodeOptions): Promise<SimNode> {
  const ownsClock = options.clock === undefined || !('now' in options.clock);
  const clock =
    options.clock !== undefined && 'now' in options.clock
      ? options.clock
      : createClock(options.clock ?? { mode: 'real', speed: 1 });
  const random = createRandom(options.seed ?? options.name);
  const runtime = new SimRuntime({
    name: options.name,
    clock,
    random: random.fork('ids'),
    eventsMode: options.eventsMode ?? 'stream',
    ...(options.preloadImages ? { preloadImages: options.preloadImages } : {}),
  });
  const stats = new StatsView(runtime, options.capacity);
  const faults = new Faults(random.fork('faults'), options.faults);
  const streams = new EventStreams();
  const deps = {
    runtime,
    stats,
    faults,
    random: random.fork('wire'),
    version: options.version ?? DEFAULT_VERSION,
  };

  let tempDir: string | undefined;
  let address: Address;
  if (options.tcp) {
    address = { kind: 'tcp', host: options.tcp.host ?? '127.0.0.1', port: options.tcp.port ?? 0 };
  } else if (options.socketPath) {
    address = { kind: 'unix', path: options.socketPath };
  } else {
    tempDir = mkdtempSync(join(tmpdir(), 'podscope-sim-'));
    address = { kind: 'unix', path: join(tempDir, `${options.name}.sock`) };
  }

  let grpc: Server | undefined = createCriServer(deps, streams);
  let raw: RawListener | undefined;
  let mode: ListenerMode = 'grpc';
  let stopped = false;
  try {
    address = await bindGrpc(grpc, address);
  } catch (err) {
    grpc.forceShutdown();
    if (ownsClock) clock.close();
    throw err;
  }

  const closeCurrent = async () => {
    if (grpc) {
      streams.drop('runtime went away');
      await shutdown(grpc);
      grpc = undefined;
    }
    if (raw) {
      await raw.close();
      raw = undefined;
    }
    if (address.kind === 'unix') clearSocket(address.path);
  };

  const setListener = async (next: ListenerMode) => {
    if (stopped) throw new Error(`simulated node ${options.name} is stopped`);
    await closeCurrent();
    mode = next;
    if (next === 'grpc') {
      grpc = createCriServer(deps, streams);
      address = await bindGrpc(grpc, address);
    } else if (next === 'garbage' || next === 'hang') {
      raw = new RawListener(next);
      address = await raw.listen(address);
    }
  };

  const node: SimNode = {
    name: options.name,
    get endpoint() {
      return endpointOf(address);
    },
    clock,
    runtime,
    stats,
    faults,
    get listener() {
      return mode;
    },
    setCondition(type, condition) {
      runtime.conditions[type] = { ...condition };
    },
    setPressure(pressure) {
      stats.pressure = { ...stats.pressure, ...pressure };
    },
    dropEventStreams() {
      streams.drop();
    },
    setListener,
    async restart({ downMs = 0 } = {}) {
      await setListener('down');
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await setListener('grpc');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await closeCurrent();
      if (ownsClock) clock.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
  return node;
}

export interface SimClusterOptions extends Omit<
  SimNodeOptions,
  'name' | 'socketPath' | 'tcp' | 'clock' | 'seed'
> {
  nodes: number;
  /** Where the sockets go (created if needed). Default: a new temp dir, removed on stop(). */
  socketDir?: string;
  /** Node names are `${prefix}${n}` with n zero-padded to 3 digits. Default 'sim-node-'. */
  namePrefix?: string;
  clock?: SimClock | ClockConfig;
  seed?: string | number;
}

export interface SimCluster {
  readonly nodes: readonly SimNode[];
  readonly clock: SimClock;
  readonly socketDir: string;
  stop(): Promise<void>;
}

export async function startSimCluster(options: SimClusterOptions): Promise<SimCluster> {
  const {
    nodes: count,
    socketDir: dir,
    namePrefix = 'sim-node-',
    clock: clockOption,
    seed,
    ...rest
  } = options;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`nodes must be a positive integer, got ${count}`);
  const ownsClock = clockOption === undefined || !('now' in clockOption);
  const clock =
    clockOption !== undefined && 'now' in clockOption
      ? clockOption
      : createClock(clockOption ?? { mode: 'real', speed: 1 });
  const ownsDir = dir === undefined;
  const socketDir = dir ?? mkdtempSync(join(tmpdir(), 'podscope-sim-'));
  const nodes: SimNode[] = [];
  const stopAll = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    if (ownsClock) clock.close();
    if (ownsDir) rmSync(socketDir, { recursive: true, force: true });
  };
  try {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(socketDir, { recursive: true });
    for (let i = 1; i <= count; i++) {
      const name = `${namePrefix}${String(i).padStart(3, '0')}`;
      nodes.push(
        await startSimNode({
          ...rest,
          name,
          socketPath: join(socketDir, `${name}.sock`),
          clock,
          seed: `${seed ?? 'podscope'}/${name}`,
        }),
      );
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return { nodes, clock, socketDir, stop: stopAll };
}
