/**
 * A complete list of one collection, in pages (limit/continue), as client-go's pager does: the
 * first page's resourceVersion names the snapshot the pages belong to; an expired continue
 * token (410 Gone) falls back to one unpaged list.
 */
import type { KubeObject, ResourceSpec } from './resource';

export interface Listed<T> {
  items: T[];
  resourceVersion: string;
}

export async function listAll<T extends KubeObject>(
  spec: ResourceSpec<T>,
  pageSize = 500,
  signal?: AbortSignal,
): Promise<Listed<T>> {
  const items: T[] = [];
  let resourceVersion = '';
  let cont: string | undefined;
  do {
    let page;
    try {
      page = await spec.list({ limit: pageSize, ...(cont ? { _continue: cont } : {}) });
    } catch (err) {
      if (cont && statusCode(err) === 410) {
        const whole = await spec.list({});
        return { items: whole.items, resourceVersion: whole.metadata?.resourceVersion ?? '' };
      }
      throw err;
    }
    items.push(...page.items);
    resourceVersion ||= page.metadata?.resourceVersion ?? '';
    cont = page.metadata?._continue || undefined;
  } while (cont && !signal?.aborted);
  return { items, resourceVersion };
}

/** The HTTP status of a client-node error: ApiException.code, or Watch's error.statusCode. */
export function statusCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { statusCode?: unknown; code?: unknown };
  if (typeof e.statusCode === 'number') return e.statusCode;
  if (typeof e.code === 'number') return e.code;
  return undefined;
}
