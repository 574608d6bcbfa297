// The image's entry point (/app/podscope.mjs): `console` (the default) serves the web console
// with Next's standalone server; `agent` loads the agent's own bundle (a DaemonSet's memory
// budget); any other command is the podscope CLI (`snapshot`, `watch`, …).
// Plain JavaScript run by node itself: the image has no shell.
import { fileURLToPath } from 'node:url';

// The worker threads (relist workers, the checkpoint keeper) are bundles in ./workers: the image
// has no server/ and no tsx for the checkout's way (server/engine/workers/pool.ts workerPaths).
// Set here, from this file's own place, rather than in the Containerfile: it holds whatever the
// working directory, and for the console and every CLI command alike.
process.env.PODSCOPE_WORKERS_DIR ||= fileURLToPath(new URL('./workers', import.meta.url));
const [command = 'console', ...rest] = process.argv.slice(2);

if (command === 'console') {
  // Next's standalone server reads HOSTNAME and PORT. The kubelet sets HOSTNAME to the pod's
  // name, so the bind address always comes from Podscope's own variable (docs/configuration.md).
  process.env.HOSTNAME = process.env.PODSCOPE_HOST || '0.0.0.0';
  process.env.PORT = process.env.PODSCOPE_PORT || '3000';
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  await import('./server.js');
} else {
  process.argv.splice(2, Infinity, command, ...rest);
  await import(command === 'agent' ? './cli/agent.mjs' : './cli/podscope.mjs');
}
