'use client';
/** A moment with its date, in the reader's language and zone (periods can span midnight). */
import { useFormatter } from 'next-intl';

export function useMoment(): (t: number) => string {
  const format = useFormatter();
  return (t) =>
    format.dateTime(new Date(t), {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
}
