/**
 * What a signed-in user may see and do, from SubjectAccessReviews: the namespaces whose pods
 * they may `get` (all of them when the permission is cluster-wide) and whether they may change
 * the console. The diagram, the log, the timeline and exports all filter by the same answer
 * (lib/timeline/visibility.ts).
 */
import { MUTATE_CHECK, READ_CHECK, type KubeReviewer, type KubeUser } from './reviewer';

export interface UserAccess {
  user: KubeUser;
  /** `get pods` in every namespace. */
  allNamespaces: boolean;
  /** The namespaces (of those asked about) the user may read, when not all. */
  namespaces: ReadonlySet<string>;
  /** `update consoles.podscope.io`: connect nodes, save and import timelines, run scenarios. */
  mayMutate: boolean;
}

/** Namespaces reviewed at once per user (each is one SubjectAccessReview, cached). */
const PARALLEL_REVIEWS = 8;

export async function userAccess(
  reviewer: KubeReviewer,
  user: KubeUser,
  namespaces: Iterable<string>,
): Promise<UserAccess> {
  const [allNamespaces, mayMutate] = await Promise.all([
    reviewer.can(user, { ...READ_CHECK }),
    reviewer.can(user, { ...MUTATE_CHECK }),
  ]);
  const readable = new Set<string>();
  if (!allNamespaces) {
    const queue = [...new Set(namespaces)].filter(Boolean);
    const worker = async () => {
      for (let ns = queue.shift(); ns !== undefined; ns = queue.shift()) {
        if (await reviewer.can(user, { ...READ_CHECK, namespace: ns })) readable.add(ns);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_REVIEWS, queue.length) }, worker));
  }
  return { user, allNamespaces, namespaces: readable, mayMutate };
}

/** The predicate the visibility filter takes. */
export function canReadNamespace(access: UserAccess): (namespace: string) => boolean {
  return (ns) => access.allNamespaces || access.namespaces.has(ns);
}
