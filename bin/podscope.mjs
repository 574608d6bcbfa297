#!/usr/bin/env node
// The `podscope` CLI. The commands are TypeScript (server/cli); tsx compiles them on load so a
// checkout works right after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const argv = process.argv.slice(2);
// `podscope agent` (one per node) loads only the agent's modules: it must fit a DaemonSet budget.
const { main } = await import(
  argv[0] === 'agent' ? '../server/cli/agent-main.ts' : '../server/cli/main.ts'
);
process.exitCode = await main(argv);
