/**
 * Renders Explanations (lib/kubelet) and other catalogue messages outside React: in the CLI, on
 * the server, in tests. React components use next-intl's hooks over the same catalogues.
 */
import { createTranslator } from 'use-intl/core';
import type { Explanation } from '../kubelet/explanation';
import { DEFAULT_LOCALE, type Locale } from './locales';
import { messagesFor } from './messages';

type Translate = (key: string, values?: Record<string, string | number | boolean>) => string;

const translators = new Map<Locale, Translate>();

function translator(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    const intl = createTranslator({
      locale,
      messages: messagesFor(locale),
      // A missing message must not throw out of a formatter; it shows the id instead.
      onError: () => undefined,
      getMessageFallback: ({ key, namespace }) => (namespace ? `${namespace}.${key}` : key),
    });
    t = intl as unknown as Translate;
    translators.set(locale, t);
  }
  return t;
}

/** Lists join the way each language joins them. */
function paramValues(
  locale: Locale,
  params: Explanation['params'],
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (!params) return out;
  const list = new Intl.ListFormat(locale, { style: 'short', type: 'conjunction' });
  for (const [k, v] of Object.entries(params)) {
    out[k] = Array.isArray(v)
      ? list.format(v as readonly string[])
      : (v as string | number | boolean);
  }
  return out;
}

export function formatExplanation(
  explanation: Explanation,
  locale: Locale = DEFAULT_LOCALE,
): string {
  return translator(locale)(`why.${explanation.id}`, paramValues(locale, explanation.params));
}

export function formatMessage(
  key: string,
  values?: Record<string, string | number | boolean>,
  locale: Locale = DEFAULT_LOCALE,
): string {
  return translator(locale)(key, values);
}
