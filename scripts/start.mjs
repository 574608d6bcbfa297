#!/usr/bin/env node
// `npm start`: bring the console up at http://127.0.0.1:3000 on the embedded simulated nodes,
// installing and building first when needed. Configuration: see README "Configuration".
import { spawn } from 'node:child_process';
import { ensureBuild, ensureNodeModules, log, root } from './lib/prepare.mjs';

ensureNodeModules();
ensureBuild();

const host = process.env.PODSCOPE_HOST ?? '127.0.0.1';
const port = process.env.PODSCOPE_PORT ?? process.env.PORT ?? '3000';
log(`starting on http://${host.includes(':') ? `[${host}]` : host}:${port}`);
const child = spawn('npx', ['next', 'start', '-H', host, '-p', port], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
