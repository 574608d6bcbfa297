#!/usr/bin/env node
// The console's server process (server/http/main.ts): Next's request handler behind Podscope's
// own HTTP server, on the approved bind address. `node scripts/server.mjs [-H HOST] [-p PORT]
// [--dev]` in the app's folder; `npm start` (scripts/start.mjs) runs it after preparing the build.
// TypeScript compiled on load by tsx, like the CLI.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../server/http/main.ts');
process.exitCode = await main(process.argv.slice(2));
