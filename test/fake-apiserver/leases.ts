/**
 * coordination.k8s.io/v1 Leases as single objects, the way a leader election uses them (client-go
 * leaderelection's LeaseLock; server/kube/lease.ts): get by name, create (409 AlreadyExists when
 * taken), and replace guarded by resourceVersion (409 Conflict when someone else wrote it first —
 * optimistic concurrency, as the real API server does). Stored in the fake's one store, so a watch
 * or list of leases sees them too.
 */
import type { IncomingMessage } from 'node:http';
import type { FakeStore, StoredObject } from './store';
import { status } from './status';

const LEASE_PATH =
  /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/leases(?:\/([^/]+))?$/;

export type Reply = (code: number, body: unknown) => void;

/** Whether this request is a single-Lease operation this module answers. */
export function isLeaseObjectRequest(method: string, path: string): boolean {
  const m = LEASE_PATH.exec(path);
  if (!m) return false;
  const named = m[3] !== undefined;
  return (named && (method === 'GET' || method === 'PUT')) || (!named && method === 'POST');
}

async function body(req: IncomingMessage): Promise<StoredObject | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as StoredObject;
    return v && typeof v === 'object' && v.metadata && typeof v.metadata.name === 'string'
      ? v
      : undefined;
  } catch {
    return undefined;
  }
}

export async function handleLease(
  store: FakeStore,
  req: IncomingMessage,
  path: string,
  reply: Reply,
): Promise<void> {
  const [, namespace = '', , name] = LEASE_PATH.exec(path) ?? [];
  const notFound = (n: string) =>
    reply(404, status(404, 'NotFound', `leases.coordination.k8s.io "${n}" not found`));
  if (req.method === 'GET') {
    const lease = store.get('leases', namespace, name ?? '');
    return lease ? reply(200, lease) : notFound(name ?? '');
  }
  const input = await body(req);
  if (!input) return reply(400, status(400, 'BadRequest', 'the body is not a Lease'));
  input.metadata.namespace ??= namespace;
  if (input.metadata.namespace !== namespace)
    return reply(400, status(400, 'BadRequest', 'the namespace of the body does not match'));
  const existing = store.get('leases', namespace, input.metadata.name);
  if (req.method === 'POST') {
    if (existing)
      return reply(
        409,
        status(
          409,
          'AlreadyExists',
          `leases.coordination.k8s.io "${input.metadata.name}" already exists`,
        ),
      );
    delete input.metadata.resourceVersion;
    return reply(201, store.upsert('leases', input));
  }
  // PUT: replace, only over the version the writer read.
  if (input.metadata.name !== name)
    return reply(400, status(400, 'BadRequest', 'the name of the body does not match the URL'));
  if (!existing) return notFound(name);
  if (input.metadata.resourceVersion !== existing.metadata.resourceVersion)
    return reply(
      409,
      status(
        409,
        'Conflict',
        `Operation cannot be fulfilled on leases.coordination.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      ),
    );
  input.metadata.uid = existing.metadata.uid;
  input.metadata.creationTimestamp = existing.metadata.creationTimestamp;
  reply(200, store.upsert('leases', input));
}
