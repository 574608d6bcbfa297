#!/usr/bin/env node
// `npm run bench`: the benchmark suite (bench/main.ts, TypeScript compiled on load by tsx, like
// the CLI). Writes bench/results/latest.json and prints a table. Options: see bench/main.ts.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../bench/main.ts');
process.exitCode = await main(process.argv.slice(2));
