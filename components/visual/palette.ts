/**
 * One palette for state, everywhere (diagram, state machines, timeline markers, log): Okabe–Ito,
 * chosen because it stays distinguishable with the common colour-vision deficiencies. Colour
 * never works alone: every tone has a fixed icon (a 12×12 path usable in SVG, canvas and HTML).
 */
export const TONES = ['ok', 'pending', 'done', 'failed', 'unknown'] as const;
export type Tone = (typeof TONES)[number];

/** Okabe & Ito (2008), "Color Universal Design". */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
  grey: '#999999',
} as const;

export const TONE_COLOR: Record<Tone, string> = {
  ok: OKABE_ITO.bluishGreen,
  pending: OKABE_ITO.orange,
  done: OKABE_ITO.blue,
  failed: OKABE_ITO.vermillion,
  unknown: OKABE_ITO.grey,
};

/**
 * Icon paths on a 12×12 grid, drawn with a 1.6 px stroke and no fill unless `filled`.
 * ok: a play triangle (running); pending: an hourglass; done: a check; failed: a cross;
 * unknown: a question mark.
 */
export const TONE_ICON: Record<Tone, { d: string; filled: boolean }> = {
  ok: { d: 'M3.5 2.2 L10 6 L3.5 9.8 Z', filled: true },
  pending: { d: 'M3 1.8 H9 M3 10.2 H9 M3.6 1.8 L8.4 10.2 M8.4 1.8 L3.6 10.2', filled: false },
  done: { d: 'M2 6.3 L4.9 9.2 L10 3', filled: false },
  failed: { d: 'M2.6 2.6 L9.4 9.4 M9.4 2.6 L2.6 9.4', filled: false },
  unknown: {
    d: 'M3.8 4.2 A2.3 2.3 0 1 1 6.8 6.3 C6.1 6.7 6 7.1 6 7.9 M6 9.6 V10.4',
    filled: false,
  },
};

export const toneColor = (tone: Tone): string => TONE_COLOR[tone];
