/**
 * The address the server listens on must be the one the configuration approved: `next start`
 * without `-H` (or with an empty one) listens on every interface, whatever PODSCOPE_HOST says
 * and whether or not a token is set. Podscope's own server (server/http/main.ts, what
 * scripts/start.mjs runs) checks the address it was given (listenProblem); instrumentation.ts
 * catches Next's CLI started some other way (bindProblem).
 */
import type { Config } from '@/server/config';

/** The `-H`/`--hostname` given to `next start`/`next dev`; null when there is none. */
export function nextHostnameArg(argv: readonly string[]): string | null | undefined {
  const command = argv.findIndex((a) => a === 'start' || a === 'dev');
  if (command < 0 || !argv.some((a) => /[/\\]next([/\\]dist[/\\]bin[/\\]next)?$/.test(a)))
    return undefined; // not the Next CLI (tests, the standalone server): nothing to check
  for (let i = command + 1; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '-H' || a === '--hostname') return argv[i + 1] ?? '';
    if (a.startsWith('--hostname=')) return a.slice('--hostname='.length);
  }
  return null;
}

/** Why this process must not serve, or undefined when its bind address is the approved one. */
export function bindProblem(
  argv: readonly string[],
  config: Pick<Config, 'host'>,
): string | undefined {
  const given = nextHostnameArg(argv);
  if (given === undefined || given === config.host) return undefined;
  const what = given === null || given === '' ? 'every interface (no -H)' : given;
  return `refusing to serve: Next.js was told to listen on ${what}, but the configuration approved ${config.host} (PODSCOPE_HOST). Start with \`npm start\`, or pass -H ${config.host}.`;
}

/** Why Podscope's own server must not listen on `hostname`, or undefined when it is approved. */
export function listenProblem(hostname: string, config: Pick<Config, 'host'>): string | undefined {
  if (hostname === config.host) return undefined;
  const what = hostname === '' ? 'every interface (empty -H)' : hostname;
  return `refusing to serve: the server was told to listen on ${what}, but the configuration approved ${config.host} (PODSCOPE_HOST). Start with \`npm start\`, or pass -H ${config.host}.`;
}
