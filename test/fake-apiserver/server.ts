/**
 * A local stand-in for kube-apiserver that speaks the list/watch protocol for Nodes, Pods,
 * Events and node Leases, so server/kube is tested on the same HTTP(S) path a real cluster uses
 * (a kubeconfig pointing here, client-node doing TLS, auth and the requests).
 *
 * Protocol implemented (k8s.io/apiserver semantics, reduced to what a reflector exercises):
 * - list: `limit` + `continue` pages; a continue token older than the compaction point → 410
 *   Expired; `metadata.resourceVersion` is the store's current revision.
 * - watch (`?watch=true`): from `resourceVersion` every later event of that collection, then live
 *   ones, as chunked JSON lines `{"type","object"}`; `allowWatchBookmarks` enables BOOKMARK
 *   lines; `timeoutSeconds` ends the stream. A resourceVersion older than the compaction point
 *   gets 410 Gone — as an HTTP 410 Status or as a 200 with an ERROR event, per `expireMode`.
 * - `fieldSelector=spec.nodeName=<node>` on pods; bearer-token auth (401 otherwise).
 * - TokenReview and SubjectAccessReview (POST, authentication.k8s.io/v1 and
 *   authorization.k8s.io/v1) for the console's sign-in: `addUser(token, user)` makes a token
 *   known, `grant(subject, rule)` an RBAC-like permission (cluster-wide, or in one namespace).
 * Test controls: change objects (store), bookmark(), compact, holdWatches() + expireWatches()
 * (a watcher that fell behind), dropWatches() (connections cut mid-stream), down()/up() (server
 * unreachable, then back on the same port).
 */
import {
  createServer as createHttp,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttps } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleLease, isLeaseObjectRequest } from './leases';
import { status } from './status';
import { FakeStore, KINDS, type HistoryEntry, type Resource, type StoredObject } from './store';
import { opensslAvailable, selfSignedCert, type TlsMaterial } from './tls';

export interface RequestRecord {
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  watch: boolean;
  status: number;
}

export interface FakeApiServerOptions {
  /** `auto` (default): HTTPS when openssl is available, else HTTP + skipTLSVerify. */
  transport?: 'auto' | 'https' | 'http';
  /** How a too-old watch resourceVersion is refused. */
  expireMode?: 'http' | 'event';
  store?: FakeStore;
  token?: string;
}

/** A user the fake authenticator knows, as a TokenReview reports it. */
export interface FakeUser {
  username: string;
  uid?: string;
  groups?: string[];
}

/** What a grant allows: like one RBAC rule, bound cluster-wide or in one namespace. */
export interface FakeGrant {
  verbs: string[];
  /** Resources; or, with nonResourceURLs, none. */
  resources: string[];
  /** Paths such as /metrics (a ClusterRole's nonResourceURLs; `*` suffix matches a prefix). */
  nonResourceURLs?: string[];
  /** API group; '' (default) is the core group. */
  group?: string;
  /** Absent: every namespace (a ClusterRoleBinding). */
  namespace?: string;
}

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  resource?: string;
}

interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

const pathMatches = (pattern: string, path: string) =>
  pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;

interface Watcher {
  resource: Resource;
  res: ServerResponse;
  bookmarks: boolean;
  nodeName?: string;
  timer?: ReturnType<typeof setTimeout>;
}

const ROUTES: [RegExp, Resource][] = [
  [/^\/api\/v1\/nodes$/, 'nodes'],
  [/^\/api\/v1\/pods$/, 'pods'],
  [/^\/api\/v1\/events$/, 'events'],
  [/^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-node-lease\/leases$/, 'leases'],
];

const REVIEW_ROUTES = new Map([
  ['/apis/authentication.k8s.io/v1/tokenreviews', 'TokenReview'],
  ['/apis/authorization.k8s.io/v1/subjectaccessreviews', 'SubjectAccessReview'],
]);

export class FakeApiServer {
  readonly store: FakeStore;
  readonly requests: RequestRecord[] = [];
  readonly token: string;
  expireMode: 'http' | 'event';
  /** Answer every watch 200 and end it at once, with no event (a misbehaving proxy). */
  flapWatches = false;
  private readonly tlsMaterial: TlsMaterial | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly watchers = new Set<Watcher>();
  private readonly held = new Set<Resource>();
  private port = 0;
  private readonly unsubscribe: () => void;
  /** Folders of the kubeconfigs written (writeKubeconfig), removed by stop(). */
  private readonly kubeconfigDirs: string[] = [];
  private readonly users = new Map<string, FakeUser>();
  private readonly grants: { subject: string; grant: FakeGrant }[] = [];
  /** Answer TokenReview and SubjectAccessReview with 500 (an API server in trouble). */
  failReviews = false;
  /** Lease reads and writes answer 500 while set (an API server that cannot reach etcd). */
  failLeases = false;

  constructor(options: FakeApiServerOptions = {}) {
    this.store = options.store ?? new FakeStore();
    this.token = options.token ?? 'podscope-test-token';
    this.expireMode = options.expireMode ?? 'http';
    const transport = options.transport ?? 'auto';
    const https = transport === 'https' || (transport === 'auto' && opensslAvailable());
    this.tlsMaterial = https ? selfSignedCert() : undefined;
    this.unsubscribe = this.store.onChange((resource, entry) => this.broadcast(resource, entry));
  }

  get url(): string {
    return `${this.tlsMaterial ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  get https(): boolean {
    return this.tlsMaterial !== undefined;
  }

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  /** Stops for good. */
  async stop(): Promise<void> {
    this.unsubscribe();
    await this.down();
    for (const dir of this.kubeconfigDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }

  /** The API server becomes unreachable: listener closed, every connection cut. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const w of this.watchers) this.endWatch(w);
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Back on the same port. */
  async up(): Promise<void> {
    await this.listen(this.port);
  }

  /** Cuts every open watch connection mid-stream (no clean end), as a network failure would. */
  dropWatches(resource?: Resource): number {
    let n = 0;
    for (const w of [...this.watchers]) {
      if (resource && w.resource !== resource) continue;
      this.watchers.delete(w);
      clearTimeout(w.timer);
      w.res.socket?.destroy();
      n++;
    }
    return n;
  }

  /** Stops delivering live events to the open watches of `resource`: a watcher falling behind. */
  holdWatches(resource: Resource): void {
    this.held.add(resource);
  }

  /**
   * Compacts history and tells every open watch its resourceVersion is gone, the way the watch
   * cache does when a watcher falls too far behind: an ERROR event with a 410 Status, then EOF.
   */
  expireWatches(resource?: Resource): number {
    this.store.compact();
    if (resource) this.held.delete(resource);
    else this.held.clear();
    let n = 0;
    for (const w of [...this.watchers]) {
      if (resource && w.resource !== resource) continue;
      this.writeLine(w, {
        type: 'ERROR',
        object: status(
          410,
          'Expired',
          `too old resource version: ${this.store.compactedRv - 1} (${this.store.compactedRv})`,
        ),
      });
      this.endWatch(w);
      n++;
    }
    return n;
  }

  /** Sends a BOOKMARK carrying the current resourceVersion to watches that allow bookmarks. */
  bookmark(resource?: Resource): number {
    let n = 0;
    for (const w of this.watchers) {
      if (!w.bookmarks || (resource && w.resource !== resource)) continue;
      const { kind, apiVersion } = KINDS[w.resource];
      this.writeLine(w, {
        type: 'BOOKMARK',
        object: { kind, apiVersion, metadata: { resourceVersion: String(this.store.rv) } },
      });
      n++;
    }
    return n;
  }

  openWatches(resource?: Resource): number {
    return [...this.watchers].filter((w) => !resource || w.resource === resource).length;
  }

  watchRequests(resource: Resource): RequestRecord[] {
    return this.requests.filter((r) => r.watch && routeOf(r.path) === resource);
  }

  listRequests(resource: Resource): RequestRecord[] {
    return this.requests.filter((r) => !r.watch && routeOf(r.path) === resource);
  }

  /** Makes `token` authenticate as `user` in TokenReviews. */
  addUser(token: string, user: FakeUser): void {
    this.users.set(token, user);
  }

  /** Lets `subject` (a user name, or `group:<name>`) do what `grant` says. */
  grant(subject: string, grant: FakeGrant): void {
    this.grants.push({ subject, grant });
  }

  /** RBAC's answer for a user and a request's attributes (no namespace = every namespace). */
  allowed(user: FakeUser, attrs: ResourceAttributes): boolean {
    return this.grantsOf(user, attrs.verb).some(
      (grant) =>
        grant.resources.includes(attrs.resource ?? '') &&
        (grant.group ?? '') === (attrs.group ?? '') &&
        (grant.namespace === undefined || grant.namespace === (attrs.namespace ?? '')),
    );
  }

  /** RBAC's answer for a non-resource request (a path such as /metrics). */
  allowedPath(user: FakeUser, attrs: NonResourceAttributes): boolean {
    return this.grantsOf(user, attrs.verb).some((grant) =>
      (grant.nonResourceURLs ?? []).some((u) => pathMatches(u, attrs.path ?? '')),
    );
  }

  /** The grants bound to the user or one of their groups that allow `verb`. */
  private grantsOf(user: FakeUser, verb: string | undefined): FakeGrant[] {
    const subjects = new Set([user.username, ...(user.groups ?? []).map((g) => `group:${g}`)]);
    return this.grants
      .filter(({ subject, grant }) => subjects.has(subject) && grant.verbs.includes(verb ?? ''))
      .map(({ grant }) => grant);
  }

  /** A kubeconfig for this server, the way a real cluster's would look. */
  kubeconfig(): Record<string, unknown> {
    const cluster: Record<string, unknown> = { server: this.url };
    if (this.tlsMaterial)
      cluster['certificate-authority-data'] = Buffer.from(this.tlsMaterial.cert).toString('base64');
    else cluster['insecure-skip-tls-verify'] = true;
    return {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'fake', cluster }],
      users: [{ name: 'podscope-test', user: { token: this.token } }],
      contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'podscope-test' } }],
      'current-context': 'fake',
    };
  }

  /** Writes the kubeconfig (JSON is YAML) to a new temp file and returns its path (until stop()). */
  writeKubeconfig(): string {
    const dir = mkdtempSync(join(tmpdir(), 'podscope-kubeconfig-'));
    this.kubeconfigDirs.push(dir);
    const path = join(dir, 'config');
    writeFileSync(path, JSON.stringify(this.kubeconfig(), null, 2));
    return path;
  }

  // ── HTTP ────────────────────────────────────────────────────────────────

  private async listen(port: number): Promise<void> {
    const handler = (req: IncomingMessage, res: ServerResponse) => this.handle(req, res);
    const server = this.tlsMaterial
      ? createHttps({ ...this.tlsMaterial }, handler)
      : createHttp(handler);
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const watch = query.watch === 'true' || query.watch === '1';
    const record = (code: number) =>
      this.requests.push({
        at: Date.now(),
        method: req.method ?? '',
        path: url.pathname,
        query,
        watch,
        status: code,
      });
    const reply = (code: number, body: unknown) => {
      record(code);
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.token}`)
      return reply(401, status(401, 'Unauthorized', 'Unauthorized'));
    if (req.method === 'POST' && REVIEW_ROUTES.has(url.pathname)) {
      return void this.review(req, url.pathname, reply);
    }
    if (isLeaseObjectRequest(req.method ?? '', url.pathname)) {
      if (this.failLeases) return reply(500, status(500, 'InternalError', 'etcd is unavailable'));
      return void handleLease(this.store, req, url.pathname, reply);
    }
    if (req.method !== 'GET')
      return reply(405, status(405, 'MethodNotAllowed', `${req.method ?? ''} is not supported`));
    const resource = routeOf(url.pathname);
    if (!resource)
      return reply(
        404,
        status(404, 'NotFound', `the server could not find the requested resource ${url.pathname}`),
      );
    const selector = parseSelector(query.fieldSelector);
    if (selector === null)
      return reply(
        400,
        status(400, 'BadRequest', `unsupported fieldSelector ${query.fieldSelector ?? ''}`),
      );
    if (watch) return this.watch(resource, query, selector, res, record);
    this.list(resource, query, selector, reply);
  }

  private async review(
    req: IncomingMessage,
    path: string,
    reply: (code: number, body: unknown) => void,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: { apiVersion?: string; kind?: string; spec?: Record<string, unknown> };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return reply(400, status(400, 'BadRequest', 'the request body is not JSON'));
    }
    if (this.failReviews) return reply(500, status(500, 'InternalError', 'review failed'));
    const kind = REVIEW_ROUTES.get(path);
    if (body.kind !== kind || !body.spec) {
      return reply(400, status(400, 'BadRequest', `expected a ${kind ?? ''} with a spec`));
    }
    if (kind === 'TokenReview') {
      const token = body.spec.token;
      const user = typeof token === 'string' ? this.users.get(token) : undefined;
      return reply(201, {
        ...body,
        status: user
          ? { authenticated: true, user: { groups: [], ...user } }
          : { authenticated: false, error: 'invalid bearer token' },
      });
    }
    const spec = body.spec as {
      user?: string;
      groups?: string[];
      resourceAttributes?: ResourceAttributes;
      nonResourceAttributes?: NonResourceAttributes;
    };
    if (!spec.user || !(spec.resourceAttributes ?? spec.nonResourceAttributes)) {
      return reply(
        400,
        status(
          400,
          'BadRequest',
          'spec.user and spec.resourceAttributes or spec.nonResourceAttributes are required',
        ),
      );
    }
    const who = { username: spec.user, groups: spec.groups ?? [] };
    const allowed = spec.resourceAttributes
      ? this.allowed(who, spec.resourceAttributes)
      : this.allowedPath(who, spec.nonResourceAttributes ?? {});
    reply(201, {
      ...body,
      status: allowed
        ? { allowed: true, reason: 'granted by the fake API server' }
        : { allowed: false },
    });
  }

  private list(
    resource: Resource,
    query: Record<string, string>,
    nodeName: string | undefined,
    reply: (code: number, body: unknown) => void,
  ): void {
    let start = 0;
    let snapshotRv = this.store.rv;
    if (query.continue) {
      const token = decodeContinue(query.continue);
      if (!token) return reply(400, status(400, 'BadRequest', 'invalid continue token'));
      if (token.rv < this.store.compactedRv) {
        return reply(
          410,
          status(
            410,
            'Expired',
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
          ),
        );
      }
      start = token.start;
      snapshotRv = token.rv;
    }
    const all = this.store.list(resource).filter((o) => matches(o, nodeName));
    const limit = query.limit ? Number(query.limit) : 0;
    const items = limit > 0 ? all.slice(start, start + limit) : all.slice(start);
    const next =
      limit > 0 && start + limit < all.length
        ? encodeContinue({ rv: snapshotRv, start: start + limit })
        : undefined;
    const { apiVersion, listKind } = KINDS[resource];
    reply(200, {
      kind: listKind,
      apiVersion,
      metadata: {
        resourceVersion: String(snapshotRv),
        ...(next ? { continue: next, remainingItemCount: all.length - start - limit } : {}),
      },
      items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest),
    });
  }

  private watch(
    resource: Resource,
    query: Record<string, string>,
    nodeName: string | undefined,
    res: ServerResponse,
    record: (code: number) => void,
  ): void {
    const from = query.resourceVersion;
    let backlog: HistoryEntry[] | undefined;
    if (!from || from === '0') {
      backlog = this.store.list(resource).map((object) => ({
        rv: Number(object.metadata.resourceVersion),
        type: 'ADDED' as const,
        object,
      }));
    } else {
      backlog = this.store.since(resource, Number(from));
    }
    if (!backlog) {
      const gone = status(
        410,
        'Expired',
        `too old resource version: ${from ?? ''} (${this.store.compactedRv})`,
      );
      if (this.expireMode === 'http') {
        record(410);
        res.writeHead(410, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(gone));
        return;
      }
      record(200);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: gone })}\n`);
      return;
    }
    record(200);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    if (this.flapWatches) return void res.end();
    res.flushHeaders();
    const w: Watcher = {
      resource,
      res,
      bookmarks: query.allowWatchBookmarks === 'true',
      ...(nodeName ? { nodeName } : {}),
    };
    for (const e of backlog)
      if (matches(e.object, nodeName)) this.writeLine(w, { type: e.type, object: e.object });
    this.watchers.add(w);
    const timeout = Number(query.timeoutSeconds ?? 0);
    if (timeout > 0) w.timer = setTimeout(() => this.endWatch(w), timeout * 1000);
    res.on('close', () => {
      clearTimeout(w.timer);
      this.watchers.delete(w);
    });
  }

  private broadcast(resource: Resource, entry: HistoryEntry): void {
    if (this.held.has(resource)) return;
    for (const w of this.watchers) {
      if (w.resource === resource && matches(entry.object, w.nodeName)) {
        this.writeLine(w, { type: entry.type, object: entry.object });
      }
    }
  }

  private writeLine(w: Watcher, event: { type: string; object: unknown }): void {
    if (!w.res.writableEnded && !w.res.destroyed) w.res.write(`${JSON.stringify(event)}\n`);
  }

  private endWatch(w: Watcher): void {
    clearTimeout(w.timer);
    this.watchers.delete(w);
    if (!w.res.writableEnded) w.res.end();
  }
}

function routeOf(path: string): Resource | undefined {
  return ROUTES.find(([re]) => re.test(path))?.[1];
}

/** undefined: no selector; null: one this fake does not support; string: spec.nodeName value. */
function parseSelector(selector: string | undefined): string | undefined | null {
  if (!selector) return undefined;
  const m = /^spec\.nodeName=(.+)$/.exec(selector);
  return m?.[1] ?? null;
}

function matches(o: StoredObject, nodeName: string | undefined): boolean {
  if (!nodeName) return true;
  return (o.spec as { nodeName?: string } | undefined)?.nodeName === nodeName;
}

function encodeContinue(t: { rv: number; start: number }): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeContinue(s: string): { rv: number; start: number } | undefined {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString()) as {
      rv?: unknown;
      start?: unknown;
    };
    return typeof v.rv === 'number' && typeof v.start === 'number'
      ? { rv: v.rv, start: v.start }
      : undefined;
  } catch {
    return undefined;
  }
}
