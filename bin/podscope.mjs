#!/usr/bin/env node
// The `podscope` CLI. The commands are TypeScript (server/cli); tsx compiles them on load so a
// checkout works right after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
