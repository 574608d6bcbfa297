'use client';
/** Highlights entities of the diagram inside the walkthrough's stage (see highlight.ts). */
import { highlightCss } from './highlight';

export const STAGE_SCOPE = '.ps-learn-stage';

export function Highlight({ ids }: { ids: readonly string[] }) {
  const css = highlightCss(ids, STAGE_SCOPE);
  return css ? <style data-testid="learn-highlight">{css}</style> : null;
}
