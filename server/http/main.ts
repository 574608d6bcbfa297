/**
 * The console's server process: `node scripts/server.mjs [-H HOST] [-p PORT] [--dev]`, run by
 * `npm start` (scripts/start.mjs, so `podscope serve` and `podscope replay` too), the benchmarks
 * and the end-to-end tests. It serves the build in the working directory on the bind address
 * the configuration approved (server/security/bind.ts), through server.ts, and stops on SIGINT
 * or SIGTERM as `next start` does: no new connections, open requests finish, Next closes, and
 * the exit code is 128 + the signal's number.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '@/server/config';
import { listenProblem } from '@/server/security/bind';

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      hostname: { type: 'string', short: 'H' },
      port: { type: 'string', short: 'p' },
      dev: { type: 'boolean', default: false },
    },
  });
  const say = (line: string) => process.stderr.write(`[podscope] ${line}\n`);
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const hostname = values.hostname ?? config.host;
  const problem = listenProblem(hostname, config);
  if (problem) {
    say(problem);
    return 1;
  }
  const port = values.port === undefined ? config.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    say(`-p ${values.port}: give a port number`);
    return 1;
  }
  // Next and React pick their production or development code by NODE_ENV as they load.
  const env = process.env as Record<string, string | undefined>;
  env.NODE_ENV ??= values.dev ? 'development' : 'production';

  // Installed before Next prepares (and the runtime, which adds its own, comes up), as `next
  // start` installs its own.
  // Until the server is up, a signal just ends the process.
  let stop = (signal: keyof typeof SIGNAL_EXIT): void => process.exit(SIGNAL_EXIT[signal]);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop(signal);
    });

  const { startHttpServer } = await import('./server');
  const http = await startHttpServer({ hostname, port, dev: values.dev });
  stop = (signal) => {
    void http
      .close()
      .catch((err: unknown) => console.error(err))
      .finally(() => process.exit(SIGNAL_EXIT[signal]));
  };
  say(`ready on ${http.url}`);
  // The listening server keeps the process alive until a signal ends it.
  return 0;
}
