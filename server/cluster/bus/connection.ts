/**
 * A connection to the cluster bus on NATS JetStream (nats.js v3: @nats-io/transport-node,
 * jetstream, kv), its storage provisioned (provision.ts). What is done with it is in the modules
 * beside this one, by side:
 *
 *   const bus = await connectBus({ servers: 'nats://127.0.0.1:4222', cluster: 'default', log });
 *   // an agent (and the API-view leader) — publisher.ts:
 *   await new BusPublisher(bus).publish(msg);           // → { streamSeq, duplicate }
 *   // a console replica — reader.ts, kv.ts:
 *   const reader = new ReplicaReader(bus);
 *   for await (const d of reader.tail(fromSeq)) …       // the ordered tail, from a stream seq
 *   const feed = await reader.writerFeed();             // the writers' durable consumer
 *   const { heartbeats, states } = await readLive(bus); // the KV of heartbeats and states
 *
 * The agent loads only this, provision.ts and publisher.ts: reading (parse.ts, zod) is the
 * replica's (server/agent/footprint.test.ts).
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { clusterNames, type ClusterNames } from '../names';
import { Refusals } from '../refusals';
import { DEFAULT_STREAM_LIMITS, provision, type StreamLimits } from './provision';

export interface BusOptions {
  servers: string | string[];
  cluster: string;
  /** The connection's name, as the server lists it (e.g. `podscope-agent node-1`). */
  name?: string;
  limits?: Partial<StreamLimits>;
  /** Where refusals are logged (unless `refusals` is given). */
  log: (line: string) => void;
  refusals?: Refusals;
  /** Fail instead of retrying while the first connection cannot be made (default: fail). */
  waitOnFirstConnect?: boolean;
}

export class BusConnection {
  readonly refusals: Refusals;

  constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly names: ClusterNames,
    readonly limits: StreamLimits,
    /** The KV bucket of heartbeats and latest node states. */
    readonly live: KV,
    refusals: Refusals,
  ) {
    this.refusals = refusals;
  }

  /** The last sequence in the stream (0 when empty). */
  async lastStreamSeq(): Promise<number> {
    const info = await this.jsm.streams.info(this.names.stream);
    return info.state.last_seq;
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain().catch(() => this.nc.close());
  }
}

/** Connects to the bus of `cluster` and provisions its stream and KV bucket. */
export async function connectBus(options: BusOptions): Promise<BusConnection> {
  const names = clusterNames(options.cluster); // validates before connecting
  const nc = await connect({
    servers: options.servers,
    name: options.name ?? 'podscope',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    waitOnFirstConnect: options.waitOnFirstConnect ?? false,
  });
  try {
    const js = jetstream(nc, { timeout: 5_000 });
    const jsm = await jetstreamManager(nc, { timeout: 5_000 });
    const limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
    const live = await provision({ js, jsm, names, limits });
    return new BusConnection(
      nc,
      js,
      jsm,
      names,
      limits,
      live,
      options.refusals ?? new Refusals(options.log),
    );
  } catch (err) {
    await nc.close().catch(() => {});
    throw err;
  }
}
