/**
 * The view lives in the URL so a copied link reopens exactly that view:
 * `?sel=<data-id>&at=<ISO or epoch ms>&speed=4&node=…&pod=…&kind=…&reason=…&all=1&bk=1&source=demo`.
 * A link with `at` opens paused at that moment, not live. A demo link also carries the moment its
 * scripted world began (`demo=<epoch ms>`), so it replays the very same events.
 */
import { isEventKind, type LogFilter } from '@/components/log/filter';
import { DEFAULT_SPEED, nearestSpeed } from './cursor';

/** The live server, the scripted demo cluster, or the 10,000-pod scale fixture (recorded). */
export type SourceKind = 'live' | 'demo' | 'scale';

const isScripted = (s: SourceKind) => s !== 'live';

export interface ViewState {
  sel?: string;
  /** Cursor time (epoch ms); absent = live. */
  at?: number;
  speed: number;
  filter: LogFilter;
  source: SourceKind;
  /** A search (`?q=`), applied by the overview; written by the overview's own hook. */
  q?: string;
  /** The scale view's node count (`?nodes=`, 1–10,000; default SCALE.nodes). */
  scaleNodes?: number;
  /** The demo world's start (epoch ms), so a demo link reproduces the same timeline. */
  demoStart?: number;
}

/** Accepts epoch milliseconds or any ISO 8601 / RFC 3339 time. */
export function parseTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d{9,}$/.test(trimmed)) return Number(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) return undefined;
  const t = Date.parse(trimmed);
  return Number.isNaN(t) ? undefined : t;
}

const limited = (v: string | null, max = 512): string | undefined =>
  v && v.length <= max ? v : undefined;

/** parseView over a page's `searchParams` (the first value of a repeated key). */
export function viewFromSearchParams(
  params: Record<string, string | string[] | undefined>,
): ViewState {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'string') query.set(k, v);
    else if (Array.isArray(v) && v[0] !== undefined) query.set(k, v[0]);
  }
  return parseView(query);
}

export function parseView(params: URLSearchParams): ViewState {
  const speed = Number(params.get('speed'));
  const kind = params.get('kind');
  const filter: LogFilter = { followSelection: params.get('all') !== '1' };
  const node = limited(params.get('node'));
  const pod = limited(params.get('pod'));
  const reason = limited(params.get('reason'));
  if (node) filter.node = node;
  if (pod) filter.pod = pod;
  if (isEventKind(kind)) filter.kind = kind;
  if (reason) filter.reason = reason;
  if (params.get('bk') === '1') filter.bookkeeping = true;
  const view: ViewState = {
    speed: Number.isFinite(speed) && speed > 0 ? nearestSpeed(speed) : DEFAULT_SPEED,
    filter,
    source:
      params.get('source') === 'demo'
        ? 'demo'
        : params.get('source') === 'scale'
          ? 'scale'
          : 'live',
  };
  const sel = limited(params.get('sel'));
  if (sel) view.sel = sel;
  const at = parseTime(params.get('at'));
  if (at !== undefined) view.at = at;
  const q = limited(params.get('q'), 1000)?.trim();
  if (q) view.q = q;
  const scaleNodes = Number(params.get('nodes'));
  if (
    view.source === 'scale' &&
    Number.isInteger(scaleNodes) &&
    scaleNodes >= 1 &&
    scaleNodes <= 10_000
  )
    view.scaleNodes = scaleNodes;
  const demoStart = parseTime(params.get('demo'));
  if (isScripted(view.source) && demoStart !== undefined) view.demoStart = demoStart;
  return view;
}

/**
 * Writes the view over `base` (other parameters are kept). Defaults are left out so links stay
 * short; times are written as ISO 8601 in UTC, readable in a chat message.
 */
export function writeView(
  view: ViewState,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const p = new URLSearchParams(base);
  const set = (key: string, value: string | undefined) =>
    value === undefined ? p.delete(key) : p.set(key, value);
  set('sel', view.sel);
  set('at', view.at === undefined ? undefined : new Date(view.at).toISOString());
  set('speed', view.speed === DEFAULT_SPEED ? undefined : String(view.speed));
  set('node', view.filter.node);
  set('pod', view.filter.pod);
  set('kind', view.filter.kind);
  set('reason', view.filter.reason);
  set('all', view.filter.followSelection ? undefined : '1');
  set('bk', view.filter.bookkeeping ? '1' : undefined);
  set('source', isScripted(view.source) ? view.source : undefined);
  set(
    'demo',
    isScripted(view.source) && view.demoStart !== undefined ? String(view.demoStart) : undefined,
  );
  return p;
}
