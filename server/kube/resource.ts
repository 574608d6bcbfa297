/**
 * A Kubernetes collection as list (list.ts) and the reflector (reflector.ts) both see it: how to
 * list it a page at a time and how to turn a raw watch object into the typed one. Its own module
 * so the pager and the reflector need not import each other.
 */
import type { V1ListMeta, V1ObjectMeta } from '@kubernetes/client-node';

export interface KubeObject {
  metadata?: V1ObjectMeta;
}

export interface ListPage<T> {
  items: T[];
  metadata?: V1ListMeta;
}

export interface ListOptions {
  limit?: number;
  _continue?: string;
}

export interface ResourceSpec<T extends KubeObject> {
  /** Short name for logs and status (`pods`, `nodes`, `events`, `leases`). */
  name: string;
  /** Collection path for the watch, e.g. `/api/v1/pods`. */
  path: string;
  list(options: ListOptions): Promise<ListPage<T>>;
  /** Raw watch JSON → the typed object the list returns (times as Date). */
  deserialize(raw: unknown): T;
  /** Extra watch query (fieldSelector/labelSelector matching the list's). */
  query?: Record<string, string>;
}
