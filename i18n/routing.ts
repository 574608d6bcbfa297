import { defineRouting } from 'next-intl/routing';
import { DEFAULT_LOCALE, LOCALES } from '@/lib/i18n/locales';

/**
 * The language lives in the URL (`/en/…`, `/zh-CN/…`) so a shared link opens in the sender's
 * language; a bare path (`/`, `/learn`) is redirected by the browser's Accept-Language.
 */
export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  localePrefix: 'always',
});
