#!/usr/bin/env node
// `npm start`: bring the console up at http://127.0.0.1:3000 on the embedded simulated nodes,
// installing and building first when needed. Configuration: see docs/configuration.md.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuild, ensureDemoRecording, ensureNodeModules, log, root } from './lib/prepare.mjs';

try {
  ensureNodeModules();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

// The bind address and port are the ones the configuration's validation approved (server/config.ts,
// the same code the server runs): an empty or unapproved PODSCOPE_HOST never reaches the server.
const { register } = await import('tsx/esm/api');
register({ tsconfig: join(root, 'tsconfig.json') });
let config;
try {
  const { loadConfig } = await import('../server/config.ts');
  // PORT, the usual variable of hosting platforms, when PODSCOPE_PORT is not set.
  const env = { ...process.env };
  if (env.PODSCOPE_PORT === undefined && env.PORT) env.PODSCOPE_PORT = env.PORT;
  config = loadConfig(env);
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

// The browser demo's recording runs beside the build (it waits on sockets, the build on CPU).
const demo = ensureDemoRecording();
try {
  ensureBuild();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
await demo;

const host = config.host;
const port = String(config.port);
log(
  `starting on http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`,
);
// Podscope's server (scripts/server.mjs: Next's request handler behind its own HTTP server),
// straight under this process (no npx or shell in between), so a signal sent to `npm start`,
// `podscope serve` or `podscope replay` reaches the server and nothing is left behind.
const server = join(root, 'scripts', 'server.mjs');
const child = spawn(process.execPath, [server, '-H', host, '-p', port], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PODSCOPE_HOST: host,
    PODSCOPE_PORT: port,
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
