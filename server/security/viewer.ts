/**
 * What the person behind one request may see and do — the routes' side of sign-in (the request
 * proxy decided who they are: auth.ts, identity.ts).
 *
 * With the token or on loopback, everyone who got in sees everything and may change everything.
 * With PODSCOPE_AUTH=kubernetes the API server decides, by SubjectAccessReview (cached briefly,
 * kube/reviewer.ts): `get pods` cluster-wide, else per namespace, is what may be read;
 * `update consoles.podscope.io` is what may change the console (connect nodes, save, annotate,
 * delete and import timelines). A user who may read no namespace the console shows is refused.
 * When the API server cannot answer, the request is refused (503), never let through.
 */
import { TRPCError } from '@trpc/server';
import type { NamespacePredicate } from '@/lib/timeline/visibility';
import type { Identity } from './identity';
import {
  isKubeReviewUnavailable,
  METRICS_CHECK,
  MUTATE_CHECK,
  READ_CHECK,
  type KubeReviewer,
  type KubeUser,
  type ResourceCheck,
} from './kube/reviewer';

export interface Viewer {
  /** Who (for messages and logs): 'anonymous', 'token' or the user name. */
  readonly name: string;
  /** True when nothing needs filtering (no per-user RBAC, or `get pods` cluster-wide). */
  seesAll(): Promise<boolean>;
  /** A predicate over namespaces, having asked about each of `namespaces` not decided yet. */
  readable(namespaces: Iterable<string>): Promise<NamespacePredicate>;
  mayMutate(): Promise<boolean>;
  /** `get` on the non-resource URL /metrics: what a Prometheus' service account is granted. */
  mayReadMetrics(): Promise<boolean>;
}

/** Everything, for everyone who got in (token mode, loopback, tests). */
export const EVERYTHING: Viewer = {
  name: 'everyone',
  seesAll: () => Promise.resolve(true),
  readable: () => Promise.resolve(() => true),
  mayMutate: () => Promise.resolve(true),
  mayReadMetrics: () => Promise.resolve(true),
};

/** Nobody: a kubernetes-mode request that carries no identity (it cannot reach here normally). */
export const NOTHING: Viewer = {
  name: 'nobody',
  seesAll: () => Promise.resolve(false),
  readable: () => Promise.resolve(() => false),
  mayMutate: () => Promise.resolve(false),
  mayReadMetrics: () => Promise.resolve(false),
};

/** The viewer for a request's identity; `reviewer` is set in kubernetes mode only. */
export function viewerFor(identity: Identity | undefined, reviewer?: KubeReviewer): Viewer {
  if (!reviewer) return identity ? EVERYTHING : NOTHING;
  if (identity?.kind !== 'user') return NOTHING;
  return userViewer(identity.user, reviewer);
}

/** A review the API server could not answer: 503, with its words (never a grant). */
function ask(reviewer: KubeReviewer, user: KubeUser, check: ResourceCheck): Promise<boolean> {
  return reviewer.can(user, check).catch((err: unknown) => {
    if (!isKubeReviewUnavailable(err)) throw err;
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: `cannot check what ${user.username} may see right now — ${err.message}`,
      cause: err,
    });
  });
}

function userViewer(user: KubeUser, reviewer: KubeReviewer): Viewer {
  // One request's decisions, so every part of one answer agrees; the reviewer caches across requests.
  const decided = new Map<string, boolean>();
  let all: Promise<boolean> | undefined;
  const seesAll = () => (all ??= ask(reviewer, user, { ...READ_CHECK }));
  return {
    name: user.username,
    seesAll,
    async readable(namespaces) {
      if (await seesAll()) return () => true;
      const open = [...new Set(namespaces)].filter((ns) => ns && !decided.has(ns));
      const answers = await Promise.all(
        open.map((ns) => ask(reviewer, user, { ...READ_CHECK, namespace: ns })),
      );
      open.forEach((ns, i) => decided.set(ns, answers[i] === true));
      return (ns) => decided.get(ns) === true;
    },
    mayMutate: () => ask(reviewer, user, { ...MUTATE_CHECK }),
    mayReadMetrics: () => ask(reviewer, user, { ...METRICS_CHECK }),
  };
}

export const MAY_NOT_READ = 'get pods in any namespace this console shows';
export const MAY_NOT_CHANGE = 'change this console';
export const MAY_NOT_SCRAPE = 'read /metrics';

const RULES = {
  [MAY_NOT_READ]: '"get" on pods in a namespace',
  [MAY_NOT_CHANGE]: '"update" on consoles.podscope.io',
  [MAY_NOT_SCRAPE]: '"get" on the non-resource URL /metrics',
} as const;

/** The refusal of a signed-in user RBAC does not allow, naming the permission to ask for. */
export function forbidden(viewer: Viewer, what: keyof typeof RULES) {
  const rule = RULES[what];
  return new TRPCError({
    code: 'FORBIDDEN',
    message: `${viewer.name} may not ${what} (Kubernetes RBAC: ask for ${rule})`,
  });
}

/**
 * Refuses a viewer who may read no namespace among `namespaces` (and not every namespace): a
 * signed-in user with no RBAC sees no nodes either.
 */
export async function requireSomeRead(viewer: Viewer, namespaces: () => Iterable<string>) {
  if (await viewer.seesAll()) return;
  const list = [...namespaces()];
  const can = await viewer.readable(list);
  if (!list.some(can)) throw forbidden(viewer, MAY_NOT_READ);
}
