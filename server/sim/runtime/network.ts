/**
 * The simulated node's network, as far as a kubelet's probes see it. The simulator has no
 * sockets; instead a running container *listens* when its command runs one of busybox's
 * servers — the same commands that listen on a real containerd with the test image:
 *
 * - `httpd [-f] [-p [ADDR:]PORT] [-h HOME]` (port 80, home "/"): an HTTP server. GET PATH
 *   answers 200 when HOME/PATH is a file of the container (made with `touch`, `echo … > F`),
 *   404 otherwise — what busybox httpd does for a static file.
 * - `nc -l[k] -p PORT` (also `-lp PORT`, `-lkp PORT`): accepts TCP connections; an HTTP request
 *   to it gets no answer (the probe times out).
 *
 * The command is read from the container's argv: the program itself, or each command of a
 * `sh -c` script (so `sh -c "touch /www/healthz; httpd -f -p 8080 -h /www"` listens on 8080).
 * A container listens from the moment it runs until it exits. Pods are addressed by their
 * sandbox IP; host-network pods by the node's IPs (127.0.0.1 and `nodeIPs`). Anything else:
 * connection refused. What is not modelled: bind failures, ports opened or closed while the
 * container runs, daemons started by ExecSync, HTTP methods, headers, redirects, TLS.
 */
import { ProbeNetworkError, hostPort, type ProbeNetwork } from '@/server/driver/probes/network';
import type { ContainerRecord, SimRuntime } from './model';

export interface Listener {
  port: number;
  kind: 'http' | 'tcp';
  /** httpd's document root. */
  home: string;
}

const SHELLS = new Set(['sh', 'ash', '/bin/sh', '/bin/ash']);

function words(command: string): string[] {
  return command
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
}

function base(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

function listenerOf(argv: readonly string[]): Listener | undefined {
  let args = [...argv];
  if (args[0] !== undefined && base(args[0]) === 'busybox') args = args.slice(1);
  if (args[0] === 'exec') args = args.slice(1);
  const name = args[0] === undefined ? '' : base(args[0]);
  const rest = args.slice(1);
  const value = (flag: string): string | undefined => {
    const i = rest.indexOf(flag);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (name === 'httpd') {
    const p = value('-p');
    const port = p === undefined ? 80 : Number(p.slice(p.lastIndexOf(':') + 1));
    const home = value('-h') ?? '/';
    return Number.isInteger(port) && port > 0 ? { port, kind: 'http', home } : undefined;
  }
  if (name === 'nc') {
    const listen = rest.some((a) => /^-[a-z]*l[a-z]*$/.test(a));
    if (!listen) return undefined;
    let port: number | undefined;
    rest.forEach((a, i) => {
      if (/^-[a-z]*p$/.test(a)) port = Number(rest[i + 1]);
    });
    return port !== undefined && Number.isInteger(port) && port > 0
      ? { port, kind: 'tcp', home: '/' }
      : undefined;
  }
  return undefined;
}

/** The ports a container's command listens on (see the header). */
export function listenersOf(argv: readonly string[]): Listener[] {
  const first = argv[0];
  if (first !== undefined && SHELLS.has(first) && argv[1] === '-c' && argv[2] !== undefined) {
    return argv[2]
      .split(/[;&|\n(){}]+/)
      .map((cmd) => listenerOf(words(cmd)))
      .filter((l): l is Listener => l !== undefined);
  }
  const l = listenerOf(argv);
  return l ? [l] : [];
}

function joinPath(home: string, path: string): string {
  const clean = path.split('?')[0] ?? '/';
  return `${home.replace(/\/+$/, '')}/${clean.replace(/^\/+/, '')}`;
}

export interface SimNetworkOptions {
  /** IPs of the node itself (host-network pods answer on these and on 127.0.0.1). */
  nodeIPs?: readonly string[];
}

/** The ProbeNetwork of one simulated node. */
export function simProbeNetwork(runtime: SimRuntime, opts: SimNetworkOptions = {}): ProbeNetwork {
  const nodeIPs = new Set(['127.0.0.1', 'localhost', ...(opts.nodeIPs ?? [])]);

  const find = (host: string, port: number): { c: ContainerRecord; l: Listener } | undefined => {
    for (const c of runtime.containers.values()) {
      if (c.state !== 'CONTAINER_RUNNING') continue;
      const sandbox = runtime.sandboxes.get(c.sandboxId);
      if (!sandbox || sandbox.state !== 'SANDBOX_READY') continue;
      const reachable =
        sandbox.network === 'NODE' ? nodeIPs.has(host) : sandbox.ip !== '' && sandbox.ip === host;
      if (!reachable) continue;
      const l = listenersOf(c.argv).find((x) => x.port === port);
      if (l) return { c, l };
    }
    return undefined;
  };

  return {
    httpGet(req) {
      const hit = find(req.host, req.port);
      if (!hit) {
        return Promise.reject(
          new ProbeNetworkError(
            `Get "${req.scheme}://${hostPort(req.host, req.port)}${req.path}": dial tcp ${hostPort(req.host, req.port)}: connect: connection refused`,
            'refused',
          ),
        );
      }
      if (hit.l.kind !== 'http' || req.scheme !== 'http') {
        // Accepted, never answered: the client gives up at its timeout.
        return new Promise((_, reject) =>
          runtime.clock.after(req.timeoutMs, () =>
            reject(
              new ProbeNetworkError(
                `Get "${req.scheme}://${hostPort(req.host, req.port)}${req.path}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
                'timeout',
              ),
            ),
          ),
        );
      }
      const file = joinPath(hit.l.home, req.path);
      return Promise.resolve(
        hit.c.files.has(file)
          ? { status: 200, body: '' }
          : {
              status: 404,
              body: '<HTML><HEAD><TITLE>404 Not Found</TITLE></HEAD>\n<BODY><H1>404 Not Found</H1>\nThe requested URL was not found\n</BODY></HTML>\n',
            },
      );
    },
    tcpConnect(host, port) {
      if (find(host, port)) return Promise.resolve();
      return Promise.reject(
        new ProbeNetworkError(
          `dial tcp ${hostPort(host, port)}: connect: connection refused`,
          'refused',
        ),
      );
    },
  };
}
