/** What every drawn entity needs to know about the scene around it. */
import type { Detail } from '../layout';

export interface SceneContext {
  detail: Detail;
  /** Current zoom scale: text that must stay legible is counter-scaled by it. */
  k: number;
  selected: string | undefined;
  /** The entity holding the roving tab stop. */
  focusId: string | undefined;
  /** Entity id → seq of the event that just changed it (drawn as a one-off pulse). */
  pulses: ReadonlyMap<string, number>;
  /** Events at the cursor that concern the selection (the log ↔ diagram link). */
  related: ReadonlySet<string>;
  onSelect: (id: string) => void;
  onFocus: (id: string) => void;
}

/**
 * Props shared by focusable entity groups (tree items with a roving tab stop). Their accessible
 * name is their `<title>` child (SVG-AAM: an SVG element without aria-label is named by its
 * title), which is also the hover tooltip — one text, and one that holds the visible label. An
 * aria-label beside it would say the same thing a second time, and the label-in-name check
 * (WCAG 2.5.3) would then read the title, the entity's own label and its children's texts as
 * its visible text.
 */
export function itemProps(ctx: SceneContext, id: string, level: 1 | 2 | 3) {
  return {
    role: 'treeitem',
    'aria-level': level,
    'aria-selected': ctx.selected === id,
    tabIndex: ctx.focusId === id ? 0 : -1,
    onClick: (e: { stopPropagation(): void }) => {
      e.stopPropagation();
      ctx.onSelect(id);
    },
    onFocus: (e: { stopPropagation(): void }) => {
      e.stopPropagation();
      ctx.onFocus(id);
    },
  } as const;
}
