/** The agent's Prometheus series (served at /metrics), beside the engine's relist series. */
import { createEngineMetrics } from '@/server/engine/metrics';
import {
  Counter,
  Gauge,
  exposition,
  processRegistry,
  type Registry,
} from '@/server/metrics/registry';
import { criRefusedCounter } from './cri-allowlist';

export function createAgentMetrics() {
  const engine = createEngineMetrics();
  const { registry } = engine;
  const registers = [registry];
  return {
    engine,
    registry,
    /** The text exposition: the agent's, the engine's, the process's series and `more`. */
    render: (more: Registry[] = []) => exposition([registry, ...more, processRegistry()]),
    published: new Counter({
      name: 'podscope_agent_published_messages_total',
      help: 'Bus messages acknowledged by the stream, by type.',
      labelNames: ['type'] as const,
      registers,
    }),
    publishedEvents: new Counter({
      name: 'podscope_agent_published_events_total',
      help: 'Events acknowledged by the stream.',
      registers,
    }),
    publishErrors: new Counter({
      name: 'podscope_agent_publish_errors_total',
      help: 'Publishes that failed (retried; the outbox keeps the message).',
      registers,
    }),
    outboxMessages: new Gauge({
      name: 'podscope_agent_outbox_messages',
      help: 'Messages waiting in the outbox (NATS slow or unreachable).',
      registers,
    }),
    outboxBytes: new Gauge({
      name: 'podscope_agent_outbox_bytes',
      help: 'JSON bytes waiting in the outbox (capped).',
      registers,
    }),
    droppedEvents: new Counter({
      name: 'podscope_agent_outbox_dropped_events_total',
      help: 'Events dropped because the outbox was full; each drop is announced by a gap message.',
      registers,
    }),
    gaps: new Counter({
      name: 'podscope_agent_outbox_gaps_total',
      help: 'Gap messages the outbox created.',
      registers,
    }),
    natsConnected: new Gauge({
      name: 'podscope_agent_nats_connected',
      help: '1 while the agent is connected to NATS.',
      registers,
    }),
    criRefused: criRefusedCounter(registers),
  };
}

export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
