/**
 * authenticate() and the per-request viewer in PODSCOPE_AUTH=kubernetes mode, against the fake
 * API server: bearer tokens by TokenReview, sessions that name the user (and survive on another
 * replica with the same secret), the OAuth2 proxy's headers only from a stamped trusted peer, an
 * API server that cannot answer (503, never a sign-in), and what each viewer may read and change.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeApiServer } from '@/test/fake-apiserver';
import { loadConfig } from '@/server/config';
import { authenticate, type AuthRequest } from '../auth';
import { PEER_HEADER, peerOf, stamp } from '../peer';
import { FailureLimiter } from '../rate-limit';
import { viewerFor } from '../viewer';
import { kubeReviewer } from './reviewer';
import { createKubeAuth, type KubeAuth } from './service';
import { issueUserSession } from './session';

let api: FakeApiServer;
let kube: KubeAuth;
const SECRET = 'the-replicas-share-this-secret-0123456789';

beforeAll(async () => {
  api = await new FakeApiServer().start();
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(api.kubeconfig()));
  api.addUser('token-alice', { username: 'alice', groups: ['ops'] });
  api.addUser('token-bob', { username: 'bob', groups: ['shop-devs'] });
  api.grant('group:ops', { verbs: ['get'], resources: ['pods'] });
  api.grant('group:ops', { verbs: ['update'], resources: ['consoles'], group: 'podscope.io' });
  api.grant('group:shop-devs', { verbs: ['get'], resources: ['pods'], namespace: 'shop' });
  api.grant('group:scrapers', { verbs: ['get'], resources: [], nonResourceURLs: ['/metrics'] });
  const config = loadConfig({
    PODSCOPE_AUTH: 'kubernetes',
    PODSCOPE_KUBECONFIG: '/unused',
    PODSCOPE_SESSION_SECRET: SECRET,
    PODSCOPE_AUTH_TRUSTED_PROXIES: '10.0.0.0/8',
  });
  kube = createKubeAuth(config, kubeReviewer(kc));
});
afterAll(async () => {
  await api?.stop();
});

/** Headers as our server stamps them for a connection from `peer`. */
function fromPeer(peer: string, headers: Record<string, string> = {}): Headers {
  const msg = {
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    rawHeaders: Object.entries(headers).flat(),
    socket: { remoteAddress: peer },
  } as unknown as Parameters<typeof stamp>[0];
  stamp(msg);
  return new Headers(msg.headers as Record<string, string>);
}

const req = (headers: Headers, sessionCookie?: string): AuthRequest => ({
  url: 'http://console.example/en',
  headers,
  ...(sessionCookie ? { sessionCookie } : {}),
});

describe('the peer stamp', () => {
  it('replaces what a client sent under the internal names, and only our own stamp reads back', () => {
    const h = fromPeer('192.168.1.9', {
      [PEER_HEADER]: '10.0.0.1',
      'x-podscope-identity': 'forged',
    });
    expect(peerOf(h)).toBe('192.168.1.9');
    expect(h.get('x-podscope-identity')).toBeNull();
    expect(peerOf(new Headers({ [PEER_HEADER]: '10.0.0.1' }))).toBeUndefined();
    expect(peerOf(new Headers({ [PEER_HEADER]: 'guess 10.0.0.1' }))).toBeUndefined();
  });
});

describe('authenticate, kubernetes mode', () => {
  const options = () => ({ kube, limiter: new FailureLimiter() });

  it('a bearer token the API server accepts is that user; another is refused and counted', async () => {
    const ok = await authenticate(
      req(fromPeer('192.168.1.9', { authorization: 'Bearer token-bob' })),
      options(),
    );
    expect(ok).toMatchObject({
      ok: true,
      identity: { kind: 'user', via: 'bearer', user: { username: 'bob', groups: ['shop-devs'] } },
    });
    const o = options();
    for (let i = 0; i < 10; i++)
      await authenticate(req(fromPeer('192.168.1.9', { authorization: `Bearer no-${i}` })), o);
    const blocked = await authenticate(
      req(fromPeer('192.168.1.9', { authorization: 'Bearer token-bob' })),
      o,
    );
    expect(blocked).toMatchObject({ ok: false, refusal: { status: 429 } });
  });

  it('a session issued by any replica with the same secret is its user; a forged one is nobody', async () => {
    const session = issueUserSession(
      { username: 'bob', groups: ['shop-devs'], via: 'token' },
      SECRET,
      Date.now(),
    );
    expect(await authenticate(req(fromPeer('192.168.1.9'), session), options())).toMatchObject({
      ok: true,
      identity: { kind: 'user', via: 'session', user: { username: 'bob' } },
    });
    const other = issueUserSession(
      { username: 'alice', groups: ['ops'], via: 'token' },
      'some-other-secret-0123456789-abcdefgh',
      Date.now(),
    );
    expect(await authenticate(req(fromPeer('192.168.1.9'), other), options())).toMatchObject({
      ok: false,
      refusal: { status: 401 },
    });
  });

  it('the OAuth2 proxy is believed from its address only', async () => {
    const h = { 'x-forwarded-user': 'alice', 'x-forwarded-groups': 'ops' };
    expect(await authenticate(req(fromPeer('10.1.2.3', h)), options())).toMatchObject({
      ok: true,
      identity: { kind: 'user', via: 'proxy', user: { username: 'alice', groups: ['ops'] } },
    });
    for (const headers of [
      fromPeer('192.168.1.9', h),
      fromPeer('192.168.1.9', { ...h, [PEER_HEADER]: '10.1.2.3' }),
      // No stamp at all (a server without instrumentation): never trusted.
      new Headers({ ...h, [PEER_HEADER]: '10.1.2.3' }),
    ])
      expect(await authenticate(req(headers), options())).toMatchObject({
        ok: false,
        refusal: { status: 401 },
      });
  });

  it('an API server that cannot answer: 503 naming the TokenReview, never a sign-in', async () => {
    api.addUser('token-new', { username: 'dave', groups: ['ops'] });
    api.failReviews = true;
    try {
      const r = await authenticate(
        req(fromPeer('192.168.1.9', { authorization: 'Bearer token-new' })),
        options(),
      );
      expect(r).toMatchObject({ ok: false, refusal: { status: 503 } });
      expect(r.ok ? '' : r.refusal.message).toMatch(/TokenReview/);
    } finally {
      api.failReviews = false;
    }
  });
});

describe('the viewer of a signed-in user', () => {
  it('reads what RBAC allows, per namespace; changes only with update consoles.podscope.io', async () => {
    const alice = viewerFor(
      { kind: 'user', via: 'proxy', user: { username: 'alice', groups: ['ops'], via: 'proxy' } },
      kube.reviewer,
    );
    expect(await alice.seesAll()).toBe(true);
    expect(await alice.mayMutate()).toBe(true);
    const bob = viewerFor(
      {
        kind: 'user',
        via: 'session',
        user: { username: 'bob', groups: ['shop-devs'], via: 'token' },
      },
      kube.reviewer,
    );
    expect(await bob.seesAll()).toBe(false);
    const can = await bob.readable(['shop', 'kube-system', 'media']);
    expect(['shop', 'kube-system', 'media'].filter(can)).toEqual(['shop']);
    expect(await bob.mayMutate()).toBe(false);
    expect(await bob.mayReadMetrics()).toBe(false);
    const prometheus = viewerFor(
      {
        kind: 'user',
        via: 'bearer',
        user: { username: 'prom', groups: ['scrapers'], via: 'token' },
      },
      kube.reviewer,
    );
    expect(await prometheus.mayReadMetrics()).toBe(true);
    expect(await prometheus.seesAll()).toBe(false);
    // Token mode identities see everything; no identity in kubernetes mode sees nothing.
    expect(await viewerFor({ kind: 'token', via: 'bearer' }).seesAll()).toBe(true);
    expect(await viewerFor(undefined, kube.reviewer).seesAll()).toBe(false);
  });

  it('a review the API server cannot answer is a 503 error, never a grant', async () => {
    api.failReviews = true;
    try {
      const carol = viewerFor(
        { kind: 'user', via: 'proxy', user: { username: 'carol', groups: [], via: 'proxy' } },
        kube.reviewer,
      );
      await expect(carol.seesAll()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      api.failReviews = false;
    }
  });
});
