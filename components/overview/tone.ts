/**
 * A cell's colour: the worse of the node's own conditions and the worst state among its pods
 * (lib/overview/wire.ts POD_HEALTH), in the console's one palette (Okabe–Ito) plus one tone the
 * diagram does not need — `warning`, a node under pressure or pods running but not Ready. Every
 * tone also has a mark drawn inside the cell once cells are large enough, so colour never works
 * alone.
 */
import { OKABE_ITO, TONE_COLOR } from '@/components/visual/palette';
import { POD_HEALTH, type PodHealth, type ReadyValue } from '@/lib/overview/wire';

/** Ordered from least to most urgent (the order cells are painted and listed in the legend). */
export const CELL_TONES = [
  'gone',
  'empty',
  'ok',
  'pending',
  'warning',
  'unknown',
  'failing',
] as const;
export type CellTone = (typeof CELL_TONES)[number];

export const CELL_COLOR: Record<CellTone, string> = {
  gone: '#d9dde3',
  empty: '#9fd9c6',
  ok: TONE_COLOR.ok,
  pending: TONE_COLOR.pending,
  warning: OKABE_ITO.reddishPurple,
  unknown: TONE_COLOR.unknown,
  failing: TONE_COLOR.failed,
};

/** The mark inside a cell: none for the calm tones. */
export const CELL_MARK: Record<CellTone, 'none' | 'cross' | 'dot' | 'bar' | 'bang' | 'ring'> = {
  gone: 'ring',
  empty: 'none',
  ok: 'none',
  pending: 'bar',
  warning: 'bang',
  unknown: 'dot',
  failing: 'cross',
};

const HEALTH_TONE: Record<PodHealth, CellTone> = {
  empty: 'empty',
  ok: 'ok',
  pending: 'pending',
  warning: 'warning',
  failing: 'failing',
};

export function cellTone(
  ready: ReadyValue | undefined,
  health: number | undefined,
  pressure: number | undefined,
  gone: number | undefined,
): CellTone {
  if (gone) return 'gone';
  if (ready === 'False') return 'failing';
  if (ready === 'Unknown' || ready === '' || ready === undefined) return 'unknown';
  const pods = HEALTH_TONE[POD_HEALTH[health ?? 0] ?? 'empty'];
  if (pressure && CELL_TONES.indexOf(pods) < CELL_TONES.indexOf('warning')) return 'warning';
  return pods;
}

export const toneIndex = (t: CellTone): number => CELL_TONES.indexOf(t);
