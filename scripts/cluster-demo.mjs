#!/usr/bin/env node
// `npm run cluster:demo [-- --nodes N --ports P1,P2]`: Podscope's cluster shape on this machine —
// nats-server, PostgreSQL, N simulated nodes running the demo workload, one `podscope agent` per
// node and two console replicas (test/cluster/stack.ts, the same code the cluster tests use).
// Ctrl-C stops every process it started, by PID. PostgreSQL runs as the postgres user when root.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuild, ensureNodeModules, log, root } from './lib/prepare.mjs';

let values;
try {
  ({ values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '3' },
      ports: { type: 'string', default: '3000,3001' },
      cluster: { type: 'string', default: 'demo' },
    },
  }));
} catch (err) {
  log(
    `${err instanceof Error ? err.message : String(err)}\nusage: npm run cluster:demo -- [--nodes N] [--ports P1,P2] [--cluster NAME]`,
  );
  process.exit(2);
}
const nodes = Number(values.nodes);
const ports = values.ports.split(',').map(Number);
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 50) {
  log(`--nodes ${values.nodes}: a whole number from 1 to 50`);
  process.exit(2);
}
if (ports.length < 1 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
  log(`--ports ${values.ports}: loopback ports, comma-separated (one console replica each)`);
  process.exit(2);
}

try {
  ensureNodeModules();
  ensureBuild();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
const { register } = await import('tsx/esm/api');
register({ tsconfig: join(root, 'tsconfig.json') });
const { startClusterStack } = await import('../test/cluster/stack.ts');

let stack;
let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping every process of the demo …`);
  await stack?.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  stack = await startClusterStack({ nodes, ports, cluster: values.cluster, log });
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
const lines = [
  `cluster "${stack.cluster}" is up:`,
  ...stack.replicas.map((r, i) => `  console replica ${i + 1}: ${r.url}  (pid ${r.pid})`),
  `  nats:       ${stack.nats.url}`,
  `  postgres:   ${stack.databaseUrl}`,
  ...stack.nodes.map((n) => `  node ${n.name}: ${n.endpoint}`),
  'processes:',
  ...stack.pids().map((p) => `  ${String(p.pid).padStart(7)}  ${p.name}`),
  'Kill one replica (kill -9 PID) and the page carries on from the other; Ctrl-C stops everything.',
];
process.stdout.write(`${lines.join('\n')}\n`);
