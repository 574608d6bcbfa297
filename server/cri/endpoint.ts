/**
 * CRI endpoint strings as operators write them (crictl / kubelet --container-runtime-endpoint):
 * `unix:///run/containerd/containerd.sock`, a bare `/run/containerd/containerd.sock`, or
 * `tcp://127.0.0.1:7777`. Turned into a grpc-js target once, at the edge.
 */

export interface ParsedEndpoint {
  /** Normalised form shown to people and carried in errors. */
  endpoint: string;
  /** What grpc-js dials. */
  target: string;
  kind: 'unix' | 'tcp';
  /** Socket path (unix) or host:port (tcp). */
  address: string;
}

export class EndpointError extends Error {
  override name = 'EndpointError';
}

export function parseEndpoint(raw: string): ParsedEndpoint {
  const value = raw.trim();
  if (value.startsWith('/')) return unix(value);
  if (value.startsWith('unix://')) {
    const path = value.slice('unix://'.length);
    if (!path.startsWith('/')) {
      throw new EndpointError(`CRI endpoint "${raw}": unix:// needs an absolute path (unix:///…)`);
    }
    return unix(path);
  }
  if (value.startsWith('tcp://')) {
    const hostPort = value.slice('tcp://'.length).replace(/\/+$/, '');
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(hostPort);
    const port = match ? Number(match[2]) : NaN;
    if (!match || port < 1 || port > 65535) {
      throw new EndpointError(`CRI endpoint "${raw}": expected tcp://host:port`);
    }
    return { endpoint: `tcp://${hostPort}`, target: hostPort, kind: 'tcp', address: hostPort };
  }
  throw new EndpointError(`CRI endpoint "${raw}": expected unix:///path, /path or tcp://host:port`);
}

function unix(path: string): ParsedEndpoint {
  if (path.includes('\0')) throw new EndpointError(`CRI endpoint "${path}": NUL in socket path`);
  return { endpoint: `unix://${path}`, target: `unix://${path}`, kind: 'unix', address: path };
}

/** True when two endpoint strings name the same socket (`/x.sock` and `unix:///x.sock`). */
export function sameEndpoint(a: string, b: string): boolean {
  const norm = (e: string) => {
    try {
      return parseEndpoint(e).endpoint;
    } catch {
      return e.trim();
    }
  };
  return a === b || norm(a) === norm(b);
}
