/** The agent's Prometheus series (served at /metrics), on top of the engine's relist series. */
import { createEngineMetrics } from '@/server/engine/metrics';
import { Counter, Gauge } from '@/server/metrics/registry';
import { criRefusedCounter } from './cri-allowlist';

export function createAgentMetrics() {
  const engine = createEngineMetrics();
  const { registry } = engine;
  return {
    engine,
    registry,
    published: registry.register(
      new Counter(
        'podscope_agent_published_messages_total',
        'Bus messages acknowledged by the stream, by type.',
      ),
    ),
    publishedEvents: registry.register(
      new Counter('podscope_agent_published_events_total', 'Events acknowledged by the stream.'),
    ),
    publishErrors: registry.register(
      new Counter(
        'podscope_agent_publish_errors_total',
        'Publishes that failed (retried; the outbox keeps the message).',
      ),
    ),
    outboxMessages: registry.register(
      new Gauge(
        'podscope_agent_outbox_messages',
        'Messages waiting in the outbox (NATS slow or unreachable).',
      ),
    ),
    outboxBytes: registry.register(
      new Gauge('podscope_agent_outbox_bytes', 'JSON bytes waiting in the outbox (capped).'),
    ),
    droppedEvents: registry.register(
      new Counter(
        'podscope_agent_outbox_dropped_events_total',
        'Events dropped because the outbox was full; each drop is announced by a gap message.',
      ),
    ),
    gaps: registry.register(
      new Counter('podscope_agent_outbox_gaps_total', 'Gap messages the outbox created.'),
    ),
    natsConnected: registry.register(
      new Gauge('podscope_agent_nats_connected', '1 while the agent is connected to NATS.'),
    ),
    criRefused: registry.register(criRefusedCounter()),
  };
}

export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
