/**
 * `podscope serve --cri …`: the console against the given endpoints (the same server `npm start`
 * runs, configured by flags instead of the environment).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@/server/config';
import type { Command } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope serve [--cri [NAME=]ENDPOINT …] [--host 127.0.0.1] [--port 3000] [--data DIR] [--kubeconfig PATH]
                      [--kubelet-version [NODE=]VERSION …]

Serves the console. With --cri it watches those runtimes (append #lab to an endpoint to let
scenarios change it); without, it runs the embedded simulated nodes like \`npm start\`.
--kubelet-version names the kubelet of nodes the API server does not describe (1.30 for every
node, NODE=1.29 for one; env PODSCOPE_KUBELET_VERSION); without, the newest minor's rules apply.
Any host other than loopback needs PODSCOPE_TOKEN (or PODSCOPE_TOKEN_FILE).`;

const root = fileURLToPath(new URL('../../..', import.meta.url));

export function serveEnv(values: {
  cri?: string[];
  host?: string;
  port?: string;
  data?: string;
  kubeconfig?: string;
  'kubelet-version'?: string[];
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (values.cri?.length) env.PODSCOPE_CRI = values.cri.join(',');
  if (values.host) env.PODSCOPE_HOST = values.host;
  if (values.port) env.PODSCOPE_PORT = values.port;
  if (values.data) env.PODSCOPE_DATA_DIR = values.data;
  if (values.kubeconfig) env.PODSCOPE_KUBECONFIG = values.kubeconfig;
  if (values['kubelet-version']?.length)
    env.PODSCOPE_KUBELET_VERSION = values['kubelet-version'].join(',');
  return env;
}

/**
 * Runs the console (scripts/start.mjs) with this environment until it exits, forwarding SIGINT
 * and SIGTERM. `quiet` sends the server's own output to stderr, for commands whose stdout is a
 * contract (replay prints only the link).
 */
export function runServer(env: NodeJS.ProcessEnv, { quiet = false } = {}): Promise<number> {
  // Validate before building, so a bad flag fails in a second rather than after a build.
  loadConfig(env);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${root}scripts/start.mjs`], {
      cwd: root,
      env,
      stdio: quiet ? ['inherit', 2, 'inherit'] : 'inherit',
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 1);
    });
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the console against given CRI endpoints',
  usage,
  async run(args) {
    const { values } = parse(args, {
      cri: { type: 'string', multiple: true },
      host: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      kubeconfig: { type: 'string' },
      'kubelet-version': { type: 'string', multiple: true },
    });
    return runServer(serveEnv(values));
  },
};
