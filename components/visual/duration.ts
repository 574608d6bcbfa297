/**
 * "2 min 13 s" in the reader's language: Intl.DurationFormat where the browser has it, else the
 * unit formatter joined the way the locale joins lists.
 */
interface DurationFormatLike {
  format(d: Record<string, number>): string;
}
type DurationFormatCtor = new (
  locale: string,
  opts: { style: 'narrow' | 'short' },
) => DurationFormatLike;

export function formatDuration(ms: number, locale: string): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts: Record<string, number> = {};
  if (h > 0) parts.hours = h;
  if (m > 0) parts.minutes = m;
  if (s > 0 || total === 0) parts.seconds = s;
  const DF = (Intl as unknown as { DurationFormat?: DurationFormatCtor }).DurationFormat;
  if (DF) return new DF(locale, { style: 'short' }).format(parts);
  const unit = (value: number, u: string) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short' }).format(value);
  const out = [
    ...(parts.hours ? [unit(parts.hours, 'hour')] : []),
    ...(parts.minutes ? [unit(parts.minutes, 'minute')] : []),
    ...(parts.seconds !== undefined ? [unit(parts.seconds, 'second')] : []),
  ];
  return new Intl.ListFormat(locale, { style: 'narrow', type: 'unit' }).format(out);
}
