/**
 * The cluster bus's storage on NATS JetStream: one stream per cluster holding every node's events
 * (limits retention: by age and by size, oldest discarded first; de-duplication by Nats-Msg-Id
 * inside the duplicate window) and one KV bucket (history 1) holding each node's heartbeat and
 * latest full state. `provision` creates both or brings an existing stream to the configured
 * limits; every opener of the bus runs it (connection.ts), so it is idempotent.
 *
 * Only features of nats-server 2.9 are used (single-subject consumer filters, no compression,
 * no per-key TTL): node staleness is judged from heartbeat age, not by key expiry.
 */
import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { STREAM_MAX_MESSAGE_BYTES } from '../envelope';
import type { ClusterNames } from '../names';

/** Stream limits: a hot replay buffer; the long timeline lives in PostgreSQL. */
export const DEFAULT_STREAM_LIMITS = {
  maxAgeMs: 72 * 3_600_000,
  maxBytes: 1024 ** 3,
  duplicateWindowMs: 2 * 60_000,
  replicas: 1,
} as const;

export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
  duplicateWindowMs: number;
  /** JetStream replicas (3 on a 3-server production cluster). */
  replicas: number;
}

export const nanos = (ms: number) => Math.round(ms * 1_000_000);

/** The events stream's configuration for these names and limits. */
export function streamConfig(
  names: ClusterNames,
  limits: StreamLimits,
): Partial<StreamConfig> & { name: string } {
  const { maxAgeMs, maxBytes, duplicateWindowMs, replicas } = limits;
  return {
    name: names.stream,
    subjects: [names.eventsFilter],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(maxAgeMs),
    max_bytes: maxBytes,
    duplicate_window: nanos(Math.min(duplicateWindowMs, maxAgeMs)),
    num_replicas: replicas,
    max_msg_size: STREAM_MAX_MESSAGE_BYTES,
  };
}

/**
 * Creates the stream and the KV bucket of heartbeats and states, or brings an existing stream to
 * the configured limits; returns the bucket.
 */
export async function provision(bus: {
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: ClusterNames;
  limits: StreamLimits;
}): Promise<KV> {
  const cfg = streamConfig(bus.names, bus.limits);
  try {
    await bus.jsm.streams.info(cfg.name);
    await bus.jsm.streams.update(cfg.name, cfg);
  } catch (err) {
    if (!/stream not found/i.test(String(err))) throw err;
    try {
      await bus.jsm.streams.add(cfg);
    } catch (addErr) {
      // Another opener created it in between: fine when the config matches.
      if (!/already in use/i.test(String(addErr))) throw addErr;
    }
  }
  return new Kvm(bus.js).create(bus.names.bucket, {
    history: 1,
    replicas: bus.limits.replicas,
    storage: StorageType.File,
  });
}
