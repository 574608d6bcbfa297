/**
 * Semantic zoom: what the overview draws at a zoom. Far out every node is a cell; closer in,
 * nodes whose detail has arrived show their pods as tiles inside the cell; past that the view
 * hands over to the three-layer diagram of the nodes in view (components/diagram).
 */
import { CELL } from './grid';

export const LEVELS = ['cells', 'pods', 'diagram'] as const;
export type Level = (typeof LEVELS)[number];

/** A cell this large on screen (px) shows its pods. */
export const PODS_AT_PX = 56;
/** Zooming in past this cell size (px) opens the diagram of the nodes in view. */
export const DIAGRAM_AT_PX = 260;

export function levelAt(k: number): Exclude<Level, 'diagram'> {
  return CELL * k >= PODS_AT_PX ? 'pods' : 'cells';
}

/** Whether a zoom has gone past the point where the diagram takes over. */
export const pastDiagram = (k: number): boolean => CELL * k >= DIAGRAM_AT_PX;

/** The zoom at which a level starts (for the level buttons). */
export function zoomForLevel(level: Exclude<Level, 'diagram'>, fitK: number): number {
  return level === 'cells' ? fitK : Math.max(fitK, (PODS_AT_PX * 1.25) / CELL);
}
