/**
 * `podscope agent --cri [NAME=]ENDPOINT --nats URL [--cluster NAME]`: one per node (a DaemonSet).
 * Watches the node's own CRI endpoint with the per-node engine and publishes its transitions,
 * heartbeat and latest node state to NATS JetStream (server/agent). Runs until SIGINT/SIGTERM.
 * Every flag has an environment variable (server/agent/config.ts), so an image needs no args.
 */
import { startAgent } from '@/server/agent/agent';
import { agentConfig } from '@/server/agent/config';
import type { Command } from '../command';

const usage = `Usage: podscope agent --cri [NAME=]ENDPOINT --nats URL [--cluster NAME] [options]

Runs the per-node engine on one CRI endpoint (the node's own socket) and publishes what it
derives to NATS JetStream for the cluster's consoles. Calls only read-only CRI methods.

  --cri [NAME=]ENDPOINT   unix:///run/containerd/containerd.sock …   env PODSCOPE_CRI
                          NAME: the node (default PODSCOPE_NODE_NAME, else the host name)
  --nats URL              nats://host:4222                           env PODSCOPE_NATS_URL
  --cluster NAME          a DNS label (default "default")            env PODSCOPE_CLUSTER
  --listen HOST:PORT      /metrics and /healthz (default 127.0.0.1:9464; port 0: a free one,
                          printed at start)
                                                                     env PODSCOPE_AGENT_LISTEN
  --outbox-bytes N        memory cap of events waiting for NATS (default 16 MiB); beyond it
                          the oldest are dropped and a gap is published  env PODSCOPE_AGENT_OUTBOX_BYTES
  --heartbeat DURATION    heartbeat period (default 5s)              env PODSCOPE_AGENT_HEARTBEAT_MS
  --relist DURATION       relist period (default 1s)                 env PODSCOPE_RELIST_MS
  --kubelet-version V     the node's kubelet (1.28–1.36), when the API server's Node does not
                          report it (default: the newest minor's rules)  env PODSCOPE_KUBELET_VERSION`;

export const agentCommand: Command = {
  name: 'agent',
  summary: "watch this node's CRI endpoint and publish to NATS (cluster mode)",
  usage,
  async run(args) {
    const config = agentConfig(args);
    if (!config.loopback)
      process.stderr.write(
        `agent: /metrics and /healthz listen on ${config.listen.host} (not loopback); they carry no secrets but expose node facts\n`,
      );
    const agent = await startAgent(config);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    process.stderr.write(`agent: ${signal}, stopping\n`);
    await agent.stop();
    return 0;
  },
};
