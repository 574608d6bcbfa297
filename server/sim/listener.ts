/**
 * Binding a simulated node to its socket, and the non-gRPC listeners the fault tests need in
 * its place: one that writes garbage bytes at whoever connects, and one that accepts and never
 * says anything. Loopback and unix sockets only.
 */
import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server as NetServer, Socket } from 'node:net';
import { ServerCredentials } from '@grpc/grpc-js';
import type { Server as GrpcServer } from '@grpc/grpc-js';

export type Address = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function assertLoopback(host: string): void {
  if (!LOOPBACK.has(host)) {
    throw new Error(
      `simulated nodes listen on loopback only (127.0.0.1, ::1, localhost), not "${host}"`,
    );
  }
}

export function endpointOf(address: Address): string {
  if (address.kind === 'unix') return `unix://${address.path}`;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `tcp://${host}:${address.port}`;
}

/** Removes a stale unix socket left by an earlier run (never a regular file). */
export function clearSocket(path: string): void {
  if (!existsSync(path)) return;
  if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket`);
  unlinkSync(path);
}

/** Binds a gRPC server; resolves with the address actually bound (the port for tcp port 0). */
export function bindGrpc(server: GrpcServer, address: Address): Promise<Address> {
  if (address.kind === 'unix') clearSocket(address.path);
  else assertLoopback(address.host);
  const target =
    address.kind === 'unix'
      ? `unix://${address.path}`
      : `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  return new Promise((resolve, reject) => {
    server.bindAsync(target, ServerCredentials.createInsecure(), (err, port) => {
      if (err) reject(new Error(`cannot listen on ${endpointOf(address)}: ${err.message}`));
      else resolve(address.kind === 'tcp' ? { ...address, port } : address);
    });
  });
}

export type RawMode = 'garbage' | 'hang';

/** A plain (non-HTTP/2) listener: `garbage` writes junk and keeps writing; `hang` stays silent. */
export class RawListener {
  private readonly sockets = new Set<Socket>();
  private server: NetServer | undefined;

  constructor(private readonly mode: RawMode) {}

  listen(address: Address): Promise<Address> {
    if (address.kind === 'unix') clearSocket(address.path);
    else assertLoopback(address.host);
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      if (this.mode === 'garbage') {
        socket.write('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n\u0000\u00ff garbage');
        socket.end();
      }
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      const onListening = () => {
        const bound = server.address();
        resolve(
          address.kind === 'tcp' && bound && typeof bound === 'object'
            ? { ...address, port: bound.port }
            : address,
        );
      };
      if (address.kind === 'unix') server.listen(address.path, onListening);
      else server.listen(address.port, address.host, onListening);
    });
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
