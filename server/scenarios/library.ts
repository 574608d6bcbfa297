/**
 * Loading the scenario library: validation against the schema (a broken file names itself and
 * the bad field), lookup by id, and the texts of titles and narration from the `learn` catalogue.
 */
import enLearn from '@/messages/en/learn.json';
import zhLearn from '@/messages/zh-CN/learn.json';
import { RAW_SCENARIOS } from './library/index';
import { Scenario } from './schema';

export class ScenarioLibraryError extends Error {
  override name = 'ScenarioLibraryError';
}

/** Validates one scenario document; `source` names it in errors. */
export function parseScenario(raw: unknown, source: string): Scenario {
  const result = Scenario.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new ScenarioLibraryError(`scenario ${source}: ${issues}`);
  }
  return result.data;
}

let cache: readonly Scenario[] | undefined;

/** Every scenario of the library, validated (once). */
export function loadLibrary(): readonly Scenario[] {
  if (cache) return cache;
  const list = RAW_SCENARIOS.map(([file, raw]) => {
    const s = parseScenario(raw, `${file}.json`);
    if (s.id !== file)
      throw new ScenarioLibraryError(
        `scenario ${file}.json: id "${s.id}" differs from the file name`,
      );
    return s;
  });
  cache = list;
  return list;
}

export function findScenario(id: string): Scenario | undefined {
  return loadLibrary().find((s) => s.id === id);
}

export type LearnLocale = 'en' | 'zh-CN';

const CATALOGUES: Record<LearnLocale, unknown> = { en: enLearn, 'zh-CN': zhLearn };

/** The text of a `learn` message id in a locale (undefined when missing). */
export function learnText(id: string, locale: LearnLocale = 'en'): string | undefined {
  let node: unknown = CATALOGUES[locale];
  for (const part of id.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}
