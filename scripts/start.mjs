#!/usr/bin/env node
// `npm start`: bring the console up at http://127.0.0.1:3000 on the embedded simulated nodes,
// installing and building first when needed. Configuration: see README "Configuration".
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuild, ensureNodeModules, log, root } from './lib/prepare.mjs';

try {
  ensureNodeModules();
  ensureBuild();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const host = process.env.PODSCOPE_HOST ?? '127.0.0.1';
const port = process.env.PODSCOPE_PORT ?? process.env.PORT ?? '3000';
log(`starting on http://${host.includes(':') ? `[${host}]` : host}:${port}`);
// Next's own binary, straight under this process (no npx or shell in between), so a signal sent
// to `npm start`, `podscope serve` or `podscope replay` reaches the server and nothing is left behind.
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', port], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
