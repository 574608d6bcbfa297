'use client';
/** "12 s ago", with the absolute, locale-formatted time on hover. */
import { useFormatter } from 'next-intl';

export function RelativeTime({
  t,
  reference,
  className,
  narrow = false,
}: {
  t: number;
  reference: number;
  className?: string;
  /** "12s ago" instead of "12 seconds ago", for dense rows. */
  narrow?: boolean;
}) {
  const format = useFormatter();
  const date = new Date(t);
  const seconds = Math.round((reference - t) / 1000);
  const style = narrow ? 'narrow' : 'long';
  // Under a minute, seconds read better than "now"; beyond that the formatter picks the unit.
  const text =
    Math.abs(seconds) < 60
      ? format.relativeTime(date, { now: new Date(reference), unit: 'second', style })
      : format.relativeTime(date, { now: new Date(reference), style });
  const absolute = format.dateTime(date, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    timeZoneName: 'short',
  });
  return (
    <time className={className} dateTime={date.toISOString()} title={absolute}>
      {text}
    </time>
  );
}

/** The absolute time of a moment, locale-formatted (the cursor readout). */
export function useAbsoluteTime(): (t: number) => string {
  const format = useFormatter();
  return (t) =>
    format.dateTime(new Date(t), {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 1,
    });
}
