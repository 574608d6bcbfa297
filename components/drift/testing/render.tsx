/**
 * Server-renders a component inside the real catalogues and parses the markup (html.ts), for
 * tests of what a component shows in each language. Test-only.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'use-intl';
import type { ReactElement } from 'react';
import { catalogues } from '@/lib/i18n/messages';
import type { Locale } from '@/lib/i18n/locales';
import { parseHtml } from './html';

export function renderIntl(node: ReactElement, now: number, locale: Locale = 'en') {
  return parseHtml(
    renderToStaticMarkup(
      <IntlProvider
        locale={locale}
        messages={catalogues[locale]}
        timeZone="UTC"
        now={new Date(now)}
      >
        {node}
      </IntlProvider>,
    ),
  );
}
