/**
 * The pure parts of marking and sharing a period: which period to save from the marks and the
 * cursor, where an annotation lands, the share link, and how to name an entity. Tested without
 * a browser.
 */
import type { ClusterState } from '@/lib/timeline/state';

export interface Marks {
  start?: number;
  end?: number;
}

export interface Period {
  from: number;
  to: number;
}

/** With no marks, a save covers this much before the cursor. */
export const DEFAULT_PERIOD_MS = 5 * 60_000;

/**
 * The period a save covers: between the marks; from the start mark to the cursor; or the last
 * five minutes up to the cursor. Never before the earliest moment shown, always ordered.
 */
export function periodToSave(marks: Marks, cursor: number, edge: Period): Period {
  const start = marks.start;
  const end = marks.end;
  let from: number;
  let to: number;
  if (start !== undefined && end !== undefined) [from, to] = [start, end];
  else if (start !== undefined) [from, to] = [start, cursor];
  else if (end !== undefined) [from, to] = [end - DEFAULT_PERIOD_MS, end];
  else [from, to] = [cursor - DEFAULT_PERIOD_MS, cursor];
  if (to < from) [from, to] = [to, from];
  from = Math.max(Math.floor(from), Math.floor(edge.from));
  to = Math.max(from, Math.ceil(to));
  return { from, to };
}

export function clampToPeriod(t: number, p: Period): number {
  return Math.min(p.to, Math.max(p.from, Math.round(t)));
}

/** `/<locale>/t/<id>?at=<ISO>&sel=<entity>` on this origin: what "Copy link" copies. */
export function shareUrl(options: {
  origin: string;
  locale: string;
  id: string;
  at?: number;
  sel?: string;
}): string {
  const url = new URL(
    `/${encodeURIComponent(options.locale)}/t/${encodeURIComponent(options.id)}`,
    options.origin,
  );
  if (options.at !== undefined) url.searchParams.set('at', new Date(options.at).toISOString());
  if (options.sel) url.searchParams.set('sel', options.sel);
  return url.toString();
}

/** How an entity is named in the UI: a node by name, a pod as namespace/name, a container after its pod. */
export function entityLabel(state: ClusterState, id: string): string {
  const [podUid, container] = splitEntity(id);
  if (container === undefined && state.nodes[podUid]) return podUid;
  for (const node of Object.values(state.nodes)) {
    const pod = node.pods[podUid];
    if (!pod) continue;
    const name = pod.namespace ? `${pod.namespace}/${pod.name}` : pod.name;
    return container === undefined ? name : `${name} › ${container}`;
  }
  return id;
}

function splitEntity(id: string): [string, string | undefined] {
  const slash = id.indexOf('/');
  return slash < 0 ? [id, undefined] : [id.slice(0, slash), id.slice(slash + 1)];
}
