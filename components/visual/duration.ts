/**
 * "2 min, 13 sec" in the reader's language: the locale's unit formatter, joined the way the
 * locale joins units. (Intl.DurationFormat would do, but Node and browsers do not all have it,
 * and the server's rendering must match the browser's.)
 */
export function formatDuration(ms: number, locale: string): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const unit = (value: number, u: string) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short' }).format(value);
  const parts = [
    ...(h > 0 ? [unit(h, 'hour')] : []),
    ...(m > 0 ? [unit(m, 'minute')] : []),
    ...(s > 0 || total === 0 ? [unit(s, 'second')] : []),
  ];
  return new Intl.ListFormat(locale, { style: 'narrow', type: 'unit' }).format(parts);
}
