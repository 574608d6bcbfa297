/**
 * Highlighting entities in the console's diagram without touching it: a style sheet that picks
 * the drawn groups by their `data-id` (the diagram's stable contract) inside the walkthrough's
 * stage. The ids come from a recording, so they are escaped as CSS strings.
 */

/** A CSS string literal: quotes, backslashes and control characters escaped. */
export function cssString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(16)} `;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Rules that mark the groups with these data-ids, within `scope` (a class selector): a glow
 * around the shape (learn.css defines it, and calms it for reduced motion) and a firmer outline.
 * The outline keeps its colour: colour is the entity's state.
 */
export function highlightCss(ids: readonly string[], scope: string): string {
  if (ids.length === 0) return '';
  const groups = ids.map((id) => `${scope} g[data-id=${cssString(id)}]`);
  return [
    `${groups.join(',\n')} { animation: ps-learn-spot 1.6s ease-in-out infinite; filter: var(--ps-learn-glow); }`,
    `${groups.map((g) => `${g} > rect:first-of-type`).join(',\n')} { stroke-width: 2.5; }`,
    '',
  ].join('\n');
}
