/**
 * The message catalogues, one JSON file per namespace and locale (messages/<locale>/<ns>.json).
 * Namespaces: `ui` (the console), `why` (lib/kubelet explanations), `learn` (walkthroughs),
 * `incident` (saved and shared timelines), `errors`. A unit test checks that every key exists in every locale with the same parameters.
 */
import enIncident from '../../messages/en/incident.json';
import enLearn from '../../messages/en/learn.json';
import enUi from '../../messages/en/ui.json';
import enWhy from '../../messages/en/why.json';
import zhIncident from '../../messages/zh-CN/incident.json';
import zhLearn from '../../messages/zh-CN/learn.json';
import zhUi from '../../messages/zh-CN/ui.json';
import zhWhy from '../../messages/zh-CN/why.json';
import type { Locale } from './locales';

export type Messages = Record<string, unknown>;

export const catalogues: Record<Locale, Messages> = {
  en: { ui: enUi, why: enWhy, learn: enLearn, incident: enIncident },
  'zh-CN': { ui: zhUi, why: zhWhy, learn: zhLearn, incident: zhIncident },
};

export function messagesFor(locale: Locale): Messages {
  return catalogues[locale];
}
