'use client';
/**
 * A warning while the server cannot write its timeline (disk full, a broken file …). The engine
 * then holds new events in memory and sends them to browsers only once they are stored, so a
 * live console would otherwise look merely quiet. Asked every few seconds while live.
 */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { createClient, type PodscopeClient } from '@/trpc/client';

const POLL_MS = 5_000;

let client: PodscopeClient | undefined;

interface StoreTrouble {
  error: string;
  held: number;
}

export function StoreWarning({ active }: { active: boolean }) {
  const t = useTranslations('ui');
  const [trouble, setTrouble] = useState<StoreTrouble | undefined>(undefined);
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        client ??= createClient();
        const h = await client.cluster.health.query();
        if (!stopped)
          setTrouble(h.storeError ? { error: h.storeError, held: h.heldEvents } : undefined);
      } catch {
        // The connection status in the header already says when the server cannot be reached.
      }
      if (!stopped) timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active]);
  // Replaying a recording (or the demo) says nothing about the server's store now.
  if (!active || !trouble) return null;
  return (
    <p className="ps-banner ps-banner-warn" role="alert" data-testid="store-warning">
      {t('storeFailing', { error: trouble.error, held: trouble.held })}
    </p>
  );
}
