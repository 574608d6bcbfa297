/**
 * Labels that must fit a box: cut with an ellipsis to a width in pixels. In a browser the width
 * is measured with the page's own font (a canvas context, results cached), so a wide system font
 * cannot push a pod name under its badges; without one (server rendering, unit tests, the
 * layout) a conservative per-character estimate stands in.
 */

export type Measure = (text: string) => number;

/** Per-character advance in em for a wide sans-serif (DejaVu Sans is among the widest). */
function charEm(c: string): number {
  const code = c.codePointAt(0) ?? 0;
  // CJK and other full-width characters.
  if (code >= 0x2e80) return 1;
  if ("iljI.,:;|!'`".includes(c)) return 0.32;
  if ('ftr()[]{}-/ '.includes(c)) return 0.42;
  if ('mwMW'.includes(c)) return 0.98;
  if (c >= 'A' && c <= 'Z') return 0.74;
  if (c >= '0' && c <= '9') return 0.64;
  return 0.62;
}

/** An estimate of the width of `text` at `px` (bold text is wider). */
export function estimateWidth(text: string, px: number, bold = false): number {
  let em = 0;
  for (const c of text) em += charEm(c);
  return em * px * (bold ? 1.08 : 1);
}

/** `text` cut with an ellipsis so it fits `maxWidth`; '' when not even one letter fits. */
export function fitText(text: string, maxWidth: number, measure: Measure): string {
  if (measure(text) <= maxWidth) return text;
  const chars = [...text];
  // The longest prefix that fits with the ellipsis (binary search: widths only grow).
  let lo = 0;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (measure(`${chars.slice(0, mid).join('')}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${chars.slice(0, lo).join('').trimEnd()}…`;
}

export interface FontSpec {
  px: number;
  bold?: boolean;
}

const estimator =
  ({ px, bold = false }: FontSpec): Measure =>
  (text) =>
    estimateWidth(text, px, bold);

/** Measured widths per font and text; bounded, as names come and go. */
const cache = new Map<string, Map<string, number>>();
const MAX_ENTRIES = 20_000;
let context: CanvasRenderingContext2D | null | undefined;
let family: string | undefined;

/**
 * A measure for text in `font` as the page draws it: canvas-measured in a browser with the
 * document's font family, estimated elsewhere.
 */
export function pageMeasure(font: FontSpec): Measure {
  if (typeof document === 'undefined') return estimator(font);
  if (context === undefined) context = document.createElement('canvas').getContext('2d');
  const ctx = context;
  if (!ctx) return estimator(font);
  family ??= getComputedStyle(document.documentElement).fontFamily || 'sans-serif';
  const css = `${font.bold ? 600 : 400} ${font.px}px ${family}`;
  let widths = cache.get(css);
  if (!widths) cache.set(css, (widths = new Map<string, number>()));
  const known = widths;
  return (text) => {
    const hit = known.get(text);
    if (hit !== undefined) return hit;
    ctx.font = css;
    const w = ctx.measureText(text).width;
    if (known.size > MAX_ENTRIES) known.clear();
    known.set(text, w);
    return w;
  };
}
