#!/usr/bin/env node
// `npm run soak`: the soak test (test/soak/main.ts, TypeScript compiled on load by tsx, like the
// CLI): 100 churning simulated nodes against the real console server for 30 minutes, with a
// subscriber on the live stream. Writes test-results/soak.json. Options: see test/soak/main.ts
// (`npm run soak -- --minutes 3` for a quick run).
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../test/soak/main.ts');
process.exitCode = await main(process.argv.slice(2));
