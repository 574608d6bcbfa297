/**
 * Who a user is and what they may do, asked of the API server the console runs against:
 * TokenReview for a bearer token (a service-account token, or an OIDC ID token the API server
 * trusts) and SubjectAccessReview for a permission. The console's own credentials need only
 * `create` on both (deploy/kubernetes/base/console/rbac.yaml).
 *
 * Answers are cached briefly (the API server's own authentication cache works the same way):
 * a token by its SHA-256, never the token itself. When the API server cannot answer, the review
 * throws KubeReviewUnavailable — a caller must refuse, never allow.
 */
import { createHash } from 'node:crypto';
import {
  AuthenticationV1Api,
  AuthorizationV1Api,
  type KubeConfig,
  type V1NonResourceAttributes,
  type V1ResourceAttributes,
} from '@kubernetes/client-node';

export interface KubeUser {
  username: string;
  uid?: string;
  groups: string[];
  /** How the console learned who this is. */
  via: 'token' | 'proxy';
}

export type ResourceCheck =
  | {
      verb: string;
      resource: string;
      /** '' = the core group. */
      group: string;
      /** '' or absent = every namespace (a cluster-wide permission). */
      namespace?: string;
    }
  /** A non-resource URL (RBAC nonResourceURLs), as the cluster's own components check /metrics. */
  | { verb: string; path: string };

/** Scraping /metrics = `get` on the non-resource URL /metrics (kube-rbac-proxy's rule). */
export const METRICS_CHECK = { verb: 'get', path: '/metrics' } as const;

/** Reading a namespace = `get pods` there (issue 14): what the diagram, log, timeline and exports show. */
export const READ_CHECK = { verb: 'get', resource: 'pods', group: '' } as const;

/**
 * Changing the console (connecting or disconnecting nodes, saving, importing or annotating
 * timelines, running scenarios) = `update` on `consoles.podscope.io`, cluster-wide. RBAC takes
 * any resource name, no CRD needed: grant it with a ClusterRole rule
 * `{apiGroups: [podscope.io], resources: [consoles], verbs: [update]}` (deploy/README.md).
 */
export const MUTATE_CHECK = { verb: 'update', resource: 'consoles', group: 'podscope.io' } as const;

const UNAVAILABLE = Symbol.for('podscope.kubeReviewUnavailable');

export class KubeReviewUnavailable extends Error {
  override name = 'KubeReviewUnavailable';
  readonly [UNAVAILABLE] = true;
}

/**
 * Recognises the error by its brand, not `instanceof`: Next.js bundles the request proxy and the
 * routes apart, and the one shared reviewer (kube/service.ts) throws the class of whichever
 * bundle made it.
 */
export function isKubeReviewUnavailable(err: unknown): err is KubeReviewUnavailable {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { [UNAVAILABLE]?: true })[UNAVAILABLE] === true
  );
}

export interface KubeReviewer {
  /** The user a token belongs to, or undefined when the API server does not accept it. */
  reviewToken(token: string): Promise<KubeUser | undefined>;
  /** Whether the user may do what `check` says. */
  can(user: KubeUser, check: ResourceCheck): Promise<boolean>;
}

export interface KubeReviewerOptions {
  /** How long an answer is reused. Default 30 s (a revoked token or binding takes effect within it). */
  ttlMs?: number;
  /** A rejected token is remembered for less time. Default 5 s. */
  deniedTtlMs?: number;
  /** At most this many answers are kept (oldest dropped). Default 10,000. */
  maxEntries?: number;
  now?: () => number;
  /** The audiences a token must be meant for (TokenReview spec.audiences); default: the API server's. */
  audiences?: string[];
}

class TtlCache<V> {
  private readonly map = new Map<string, { value: V; until: number }>();
  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.until <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: V, ttlMs: number): void {
    this.map.delete(key);
    this.map.set(key, { value, until: this.now() + ttlMs });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

function unavailable(what: string, err: unknown): KubeReviewUnavailable {
  const code = (err as { code?: number })?.code;
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new KubeReviewUnavailable(
    `the API server did not answer the ${what}${code ? ` (HTTP ${code})` : ''}: ${message}`,
  );
}

export function kubeReviewer(kc: KubeConfig, options: KubeReviewerOptions = {}): KubeReviewer {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? 30_000;
  const deniedTtl = options.deniedTtlMs ?? 5_000;
  const users = new TtlCache<KubeUser | null>(options.maxEntries ?? 10_000, now);
  const decisions = new TtlCache<boolean>(options.maxEntries ?? 10_000, now);
  const authn = kc.makeApiClient(AuthenticationV1Api);
  const authz = kc.makeApiClient(AuthorizationV1Api);

  return {
    async reviewToken(token) {
      if (!token) return undefined;
      const key = sha256(token);
      const cached = users.get(key);
      if (cached !== undefined) return cached ?? undefined;
      let review;
      try {
        review = await authn.createTokenReview({
          body: {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenReview',
            spec: { token, ...(options.audiences ? { audiences: options.audiences } : {}) },
          },
        });
      } catch (err) {
        throw unavailable('TokenReview', err);
      }
      const status = review.status;
      const user: KubeUser | null =
        status?.authenticated && status.user?.username
          ? {
              username: status.user.username,
              ...(status.user.uid ? { uid: status.user.uid } : {}),
              groups: status.user.groups ?? [],
              via: 'token',
            }
          : null;
      users.set(key, user, user ? ttl : deniedTtl);
      return user ?? undefined;
    },

    async can(user, check) {
      const attrs: V1ResourceAttributes | V1NonResourceAttributes =
        'path' in check
          ? { verb: check.verb, path: check.path }
          : {
              verb: check.verb,
              resource: check.resource,
              group: check.group,
              namespace: check.namespace ?? '',
            };
      const key = JSON.stringify([user.username, [...user.groups].sort(), attrs]);
      const cached = decisions.get(key);
      if (cached !== undefined) return cached;
      let review;
      try {
        review = await authz.createSubjectAccessReview({
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: user.username,
              groups: user.groups,
              ...(user.uid ? { uid: user.uid } : {}),
              ...('path' in check
                ? { nonResourceAttributes: attrs }
                : { resourceAttributes: attrs }),
            },
          },
        });
      } catch (err) {
        throw unavailable('SubjectAccessReview', err);
      }
      const allowed = review.status?.allowed === true && review.status.denied !== true;
      decisions.set(key, allowed, ttl);
      return allowed;
    },
  };
}
