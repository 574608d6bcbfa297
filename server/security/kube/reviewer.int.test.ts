/**
 * Sign-in with the cluster's identities against the fake API server over HTTPS, through
 * client-node as in a cluster: an allowed user, a denied one, a namespace-limited one, an
 * unknown token, a trusted proxy's user, and an API server that cannot answer.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeApiServer } from '@/test/fake-apiserver';
import { viewerFor, type Viewer } from '../viewer';
import { identityFromProxy, trustedProxies } from './proxy-identity';
import {
  KubeReviewUnavailable,
  kubeReviewer,
  MUTATE_CHECK,
  READ_CHECK,
  type KubeReviewer,
  type KubeUser,
} from './reviewer';

/** What a user may see and do, as the routes ask it (server/security/viewer.ts). */
async function userAccess(reviewer: KubeReviewer, user: KubeUser, namespaces: string[]) {
  const viewer: Viewer = viewerFor({ kind: 'user', via: 'bearer', user }, reviewer);
  const allNamespaces = await viewer.seesAll();
  const mayMutate = await viewer.mayMutate();
  const read = await viewer.readable(namespaces);
  return { allNamespaces, mayMutate, namespaces: new Set(namespaces.filter(read)), read };
}

let api: FakeApiServer;
let kc: KubeConfig;
const NAMESPACES = ['team-a', 'team-b', 'kube-system'];

beforeAll(async () => {
  api = await new FakeApiServer().start();
  kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(api.kubeconfig()));
  api.addUser('token-admin', { username: 'alice', uid: 'u-alice', groups: ['ops'] });
  api.addUser('token-viewer', { username: 'bob', groups: ['team-a-devs'] });
  api.addUser('token-nobody', { username: 'mallory', groups: [] });
  // ops: read pods everywhere and change the console (a ClusterRoleBinding).
  api.grant('group:ops', { verbs: ['get', 'list', 'watch'], resources: ['pods'] });
  api.grant('group:ops', { verbs: ['update'], resources: ['consoles'], group: 'podscope.io' });
  // team-a developers: pods in team-a only (a RoleBinding).
  api.grant('group:team-a-devs', { verbs: ['get'], resources: ['pods'], namespace: 'team-a' });
});
afterAll(async () => {
  await api?.stop();
});

const reviewsOf = (kind: 'tokenreviews' | 'subjectaccessreviews') =>
  api.requests.filter((r) => r.method === 'POST' && r.path.endsWith(kind));

describe('TokenReview', () => {
  it('names the user of a token the API server accepts, and caches it by digest', async () => {
    const reviewer = kubeReviewer(kc);
    const before = reviewsOf('tokenreviews').length;
    const alice = await reviewer.reviewToken('token-admin');
    expect(alice).toEqual({ username: 'alice', uid: 'u-alice', groups: ['ops'], via: 'token' });
    await reviewer.reviewToken('token-admin');
    expect(reviewsOf('tokenreviews').length - before).toBe(1);
  });

  it('refuses a token the API server does not accept (and an empty one without asking)', async () => {
    const reviewer = kubeReviewer(kc);
    const before = reviewsOf('tokenreviews').length;
    expect(await reviewer.reviewToken('not-a-token')).toBeUndefined();
    expect(await reviewer.reviewToken('')).toBeUndefined();
    expect(reviewsOf('tokenreviews').length - before).toBe(1);
  });

  it('forgets an answer after its time, so a revoked token stops working', async () => {
    let now = 1_000_000;
    const reviewer = kubeReviewer(kc, { now: () => now, ttlMs: 1000, deniedTtlMs: 100 });
    api.addUser('token-short', { username: 'carol' });
    expect((await reviewer.reviewToken('token-short'))?.username).toBe('carol');
    api.addUser('token-short', { username: 'carol-rotated' });
    expect((await reviewer.reviewToken('token-short'))?.username).toBe('carol');
    now += 1001;
    expect((await reviewer.reviewToken('token-short'))?.username).toBe('carol-rotated');
  });

  it('throws KubeReviewUnavailable when the API server cannot answer — never a sign-in', async () => {
    const reviewer = kubeReviewer(kc);
    api.failReviews = true;
    try {
      await expect(reviewer.reviewToken('token-viewer')).rejects.toBeInstanceOf(
        KubeReviewUnavailable,
      );
      await expect(
        reviewer.can({ username: 'bob', groups: [], via: 'token' }, READ_CHECK),
      ).rejects.toThrow(/SubjectAccessReview/);
    } finally {
      api.failReviews = false;
    }
  });
});

describe('SubjectAccessReview: what each user may see and do', () => {
  it('allowed: a user who may get pods everywhere reads every namespace and may change the console', async () => {
    const reviewer = kubeReviewer(kc);
    const alice = (await reviewer.reviewToken('token-admin'))!;
    const access = await userAccess(reviewer, alice, NAMESPACES);
    expect(access.allNamespaces).toBe(true);
    expect(access.mayMutate).toBe(true);
    expect(NAMESPACES.every(access.read)).toBe(true);
  });

  it('namespace-limited: a user who may get pods in team-a sees team-a only and changes nothing', async () => {
    const reviewer = kubeReviewer(kc);
    const bob = (await reviewer.reviewToken('token-viewer'))!;
    const access = await userAccess(reviewer, bob, NAMESPACES);
    expect(access.allNamespaces).toBe(false);
    expect([...access.namespaces]).toEqual(['team-a']);
    expect(access.mayMutate).toBe(false);
    expect(NAMESPACES.filter(access.read)).toEqual(['team-a']);
  });

  it('denied: an authenticated user with no RBAC sees no namespace and changes nothing', async () => {
    const reviewer = kubeReviewer(kc);
    const mallory = (await reviewer.reviewToken('token-nobody'))!;
    expect(mallory.username).toBe('mallory');
    const access = await userAccess(reviewer, mallory, NAMESPACES);
    expect(access).toMatchObject({ allNamespaces: false, mayMutate: false });
    expect(NAMESPACES.filter(access.read)).toEqual([]);
    expect(access.namespaces.size).toBe(0);
  });

  it('asks the API server the documented questions: get pods (cluster-wide, then per namespace) and update consoles.podscope.io', async () => {
    const reviewer = kubeReviewer(kc);
    const seen: unknown[] = [];
    const can = reviewer.can.bind(reviewer);
    reviewer.can = (user, check) => {
      seen.push(check);
      return can(user, check);
    };
    await userAccess(reviewer, { username: 'dave', groups: [], via: 'token' }, ['team-b']);
    expect(seen).toEqual([READ_CHECK, MUTATE_CHECK, { ...READ_CHECK, namespace: 'team-b' }]);
  });
});

describe('OIDC through a trusted OAuth2 proxy', () => {
  const trusted = trustedProxies('10.0.0.0/8, fd00::1');
  const headers = (h: Record<string, string>) => new Headers(h);

  it('believes the forwarded user only from a trusted peer; RBAC then decides as for a token', async () => {
    const h = headers({ 'x-forwarded-user': 'bob', 'x-forwarded-groups': 'team-a-devs, other' });
    expect(identityFromProxy(h, '192.168.1.10', trusted)).toBeUndefined();
    expect(identityFromProxy(h, undefined, trusted)).toBeUndefined();
    const bob = identityFromProxy(h, '::ffff:10.1.2.3', trusted);
    expect(bob).toEqual({ username: 'bob', groups: ['team-a-devs', 'other'], via: 'proxy' });
    expect(identityFromProxy(h, 'fd00::1', trusted)?.username).toBe('bob');
    const access = await userAccess(kubeReviewer(kc), bob!, NAMESPACES);
    expect([...access.namespaces]).toEqual(['team-a']);
  });

  it('ignores headers that name nobody or carry control characters or lists', () => {
    expect(identityFromProxy(headers({}), '10.0.0.1', trusted)).toBeUndefined();
    expect(
      identityFromProxy(headers({ 'x-forwarded-user': 'a,b' }), '10.0.0.1', trusted),
    ).toBeUndefined();
    expect(
      identityFromProxy(headers({ 'x-forwarded-email': 'e@example.com' }), '10.0.0.1', trusted)
        ?.username,
    ).toBe('e@example.com');
  });

  it('refuses a trusted-proxy list that is not addresses or CIDRs', () => {
    expect(() => trustedProxies('10.0.0.0/33')).toThrow(/10.0.0.0\/33/);
    expect(() => trustedProxies('proxy.example')).toThrow(/proxy.example/);
    expect(() => trustedProxies('10.0.0.0/')).toThrow();
  });
});
