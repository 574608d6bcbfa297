/**
 * Strings from an imported file are data: they are kept exactly, and every consumer shows them as
 * text. React escapes markup; this makes the characters themselves harmless to show: control
 * characters become their visible Control Pictures (␀…␟, ␡), C1 controls and the bidirectional
 * overrides that can make text read differently from what it is become U+FFFD, and overly long
 * text is cut with an ellipsis.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u0080-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface InertOptions {
  /** Keep line breaks and tabs (notes, annotation text). */
  multiline?: boolean;
  /** Cut to this many characters (code points). */
  max?: number;
}

export function inertText(value: string, options: InertOptions = {}): string {
  const replaced = value.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (options.multiline && (c === '\n' || c === '\t')) return c;
    if (options.multiline && c === '\r') return '';
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return '\ufffd';
  });
  if (options.max === undefined) return replaced;
  const points = [...replaced];
  return points.length > options.max ? `${points.slice(0, options.max - 1).join('')}…` : replaced;
}
